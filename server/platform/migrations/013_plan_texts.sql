-- A plan's texts in the product's other languages (issue 37, product.md#plan-texts): its name,
-- description and features as a viewer reads them, kept on the plan itself so that a plan made later
-- carries its own. English stays where it was (name, description, features: the spec's fields); `texts`
-- holds the others, by language, each field optional:
--   {"ceb": {"name": "Binulan", "description": "…", "features": ["…", "…"]}}
-- The API answers a plan's texts in the request's language, a missing one in English (plans.ts). The
-- seeded plans' texts are written from the message catalogs at start (catalog.ts `ensureCatalog`).
ALTER TABLE plans
  ADD COLUMN texts jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(texts) = 'object');

-- Walk finding 21: the yearly plan renews, so its list must not say "One-time yearly payment" (a plan
-- seeded before this migration; a fresh database gets the new text from catalog.ts).
UPDATE plans SET features = '["Everything in Monthly", "Save ₱198 a year", "One payment a year, renews automatically"]'::jsonb,
                 description = 'One payment a year: save ₱198, the equal of 2 free months.'
 WHERE slug = 'yearly' AND features = '["Everything in Monthly", "Save Php 198 a year", "One-time yearly payment"]'::jsonb;
