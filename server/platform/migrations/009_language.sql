-- The language a viewer reads the product in (issue 20): the emails the server sends on its own (renewal
-- receipts, failed payments, reminders, end notices) are written in it. Set at sign-up, sign-in and
-- when a signed-in viewer chooses a language.
ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ceb'));
