/** Plans: the list the wizard shows, one plan by id or slug, and the rule for what can be bought. */
import type { BillingCycle, Plan } from '../../src/api/schemas';
import type { Db, Queryable } from '../platform/db';
import { jsonList, type JsonList } from '../platform/jsonList';
import { HttpError } from '../platform/http';
import { LANGUAGES, type Language } from '../platform/language';
import type { PlanTexts } from './catalog';
import { PAYMENT_MESSAGES } from './messages';

export interface PlanRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  type: 'FREE' | 'PREMIUM' | 'VOUCHER';
  price: string;
  currency: string;
  duration: number;
  billing_cycle: BillingCycle;
  trial_days: number;
  sort_order: number;
  is_active: boolean;
  features: string[];
  popular: boolean;
  /** The texts in the other languages (migration 013, product.md#plan-texts). */
  texts: Partial<Record<Language, PlanTexts>>;
}

/** The plan's columns a viewer's read shows beside a subscription or a payment (`texts`: its name in the other languages). */
export type ShownPlan = Pick<PlanRow, 'id' | 'name' | 'type' | 'price' | 'currency' | 'duration' | 'billing_cycle' | 'texts'>;
const SHOWN_PLANS = 'SELECT id, name, type, price::text AS price, currency, duration, billing_cycle, texts FROM plans';
/** By the remembered answer's rows, so a remembered answer is made into a map once. */
const plansByAnswer = new WeakMap<readonly ShownPlan[], ReadonlyMap<number, ShownPlan>>();

/**
 * The plans by id, from memory where the adapter remembers a table (PGlite: `Db.remember`, forgotten
 * when a statement that writes `plans` runs), so that a viewer's read shows its subscriptions' and
 * payments' plans without joining the table (issue 21: on PGlite the join and its columns were about a
 * third of the status read's statement). Only there: on PostgreSQL another process may write the plans,
 * and the reads join them. Ask after the read whose rows name the plans: a plan written before that
 * read ran is then in the answer.
 */
export async function rememberedPlans(db: Pick<Db, 'remember'>): Promise<ReadonlyMap<number, ShownPlan>> {
  if (!db.remember) throw new Error('The plans are remembered only where the adapter remembers tables (PGlite)');
  const { rows } = await db.remember<ShownPlan>('plans', SHOWN_PLANS);
  let plans = plansByAnswer.get(rows);
  if (!plans) plansByAnswer.set(rows, (plans = new Map(rows.map((plan) => [plan.id, plan]))));
  return plans;
}

export const PLAN_SELECT = `SELECT id, slug, name, description, type, price::text AS price, currency, duration, billing_cycle,
  trial_days, sort_order, is_active, features, popular, texts FROM plans`;

/**
 * product.md#plan-texts: a plan's name, description and features in `language`, each from the plan's
 * `texts` where it has one, else its English. English is the plan's own columns (and what Maya is sent).
 */
export function planTextsIn(plan: Pick<PlanRow, 'name' | 'description' | 'features' | 'texts'>, language: Language) {
  const texts = language === 'en' ? undefined : plan.texts?.[language];
  return {
    name: texts?.name || plan.name,
    description: texts?.description || plan.description,
    features: Array.isArray(texts?.features) && texts.features.length > 0 ? texts.features : plan.features,
  };
}

/** A plan's name in `language` (its English where it has none there). */
export const planNameIn = (plan: Pick<PlanRow, 'name' | 'texts'>, language: Language): string =>
  (language === 'en' ? undefined : plan.texts?.[language]?.name) || plan.name;

/**
 * The plans' names in `language`, by their English name (what the reads write: the status, the
 * histories, the receipt); null in English, where nothing changes. From the remembered plans on PGlite
 * (the answer holds every language: picking one happens here, so a remembered read never mixes them),
 * else read, a handful of rows. A plan's English name names one plan (two plans with one English name
 * and two Bisaya ones would read as the first).
 */
export async function planNamesIn(db: Db, language: Language): Promise<ReadonlyMap<string, string> | null> {
  if (language === 'en') return null;
  const plans = db.remember
    ? (await rememberedPlans(db)).values()
    : (await db.query<Pick<PlanRow, 'name' | 'texts'>>('SELECT name, texts FROM plans ORDER BY id')).rows;
  const names = new Map<string, string>();
  for (const plan of plans) if (!names.has(plan.name)) names.set(plan.name, planNameIn(plan, language));
  return names;
}

/** `json` (a list's answer) with each row's `field` (a plan's English name) in the language of `names`. */
export function namedIn(json: string, field: string, names: ReadonlyMap<string, string> | null): string {
  if (!names) return json;
  const rows = JSON.parse(json) as Array<Record<string, unknown>>;
  for (const row of rows) {
    const name = row[field];
    if (typeof name === 'string') row[field] = names.get(name) ?? name;
  }
  return JSON.stringify(rows);
}

/** The contract's plan; its texts in `language` (English by default: the server's own uses, Maya's item names). */
export function toPlan(row: PlanRow, language: Language = 'en'): Plan {
  const texts = planTextsIn(row, language);
  return {
    id: row.id,
    slug: row.slug,
    name: texts.name,
    description: texts.description,
    price: row.price,
    currency: row.currency,
    duration: String(row.duration),
    billingCycle: row.billing_cycle,
    trialDays: row.trial_days,
    sortOrder: row.sort_order,
    isActive: row.is_active,
    features: texts.features,
    popular: row.popular,
  };
}

/**
 * The plans list as the answer's JSON (server/platform/jsonList.ts), each plan named and ordered as
 * `toPlan` writes it (test/server/platform/json-list.test.ts compares the two); its texts in the
 * language `$3` (product.md#plan-texts: each one the plan has there, else its English; an empty text
 * or list counts as none, as in `planTextsIn`).
 */
export const PLAN_LIST = `SELECT id, slug, COALESCE(NULLIF(texts->$3::text->>'name', ''), name) AS name,
  COALESCE(NULLIF(texts->$3::text->>'description', ''), description) AS description, price::text AS price, currency, duration::text AS duration,
  billing_cycle AS "billingCycle", trial_days AS "trialDays", sort_order AS "sortOrder", is_active AS "isActive",
  CASE WHEN jsonb_typeof(texts->$3::text->'features') = 'array' AND jsonb_array_length(texts->$3::text->'features') > 0 THEN texts->$3::text->'features' ELSE features END AS features, popular
  FROM plans WHERE ($1::text IS NULL OR type = $1) AND ($2::boolean IS NULL OR is_active = $2) ORDER BY sort_order, id`;

export async function listPlans(db: Db, filter: { type?: string | undefined; isActive?: boolean | undefined }, language: Language = 'en'): Promise<JsonList> {
  if (!LANGUAGES.includes(language)) throw new Error(`listPlans: no language ${String(language)}`);
  return jsonList(db, PLAN_LIST, [filter.type ?? null, filter.isActive ?? null, language]);
}

/** By numeric id or by slug (product.md#plan-by-slug: the wizard looks plans up by slug); its texts in `language`. */
export async function findPlan(q: Queryable, idOrSlug: string, language: Language = 'en'): Promise<Plan> {
  const byId = /^\d{1,9}$/.test(idOrSlug);
  const result = await q.query<PlanRow>(`${PLAN_SELECT} WHERE ${byId ? 'id = $1::int' : 'slug = $1'}`, [idOrSlug]);
  const row = result.rows[0];
  if (!row) throw new HttpError(404, PAYMENT_MESSAGES.planNotFound);
  return toPlan(row, language);
}


/** A plan the viewer may buy or change to: it exists, is a PREMIUM plan (not FREE or VOUCHER), and is on sale. */
export async function premiumPlan(q: Queryable, planId: number): Promise<Plan> {
  const plan = await findPlan(q, String(planId));
  if (plan.id !== planId) throw new HttpError(404, PAYMENT_MESSAGES.planNotFound);
  const type = (await q.query<{ type: string }>('SELECT type FROM plans WHERE id = $1', [plan.id])).rows[0]?.type;
  if (type !== 'PREMIUM') throw new HttpError(400, PAYMENT_MESSAGES.notPremiumPlan);
  if (!plan.isActive) throw new HttpError(400, PAYMENT_MESSAGES.planInactive);
  return plan;
}
