/** Plans: the list the wizard shows, one plan by id or slug, and the rule for what can be bought. */
import type { BillingCycle, Plan } from '../../src/api/schemas';
import type { Db, Queryable } from '../platform/db';
import { jsonList, type JsonList } from '../platform/jsonList';
import { HttpError } from '../platform/http';
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
}

/** The plan's columns a viewer's read shows beside a subscription or a payment. */
export type ShownPlan = Pick<PlanRow, 'id' | 'name' | 'type' | 'price' | 'currency' | 'duration' | 'billing_cycle'>;
const SHOWN_PLANS = 'SELECT id, name, type, price::text AS price, currency, duration, billing_cycle FROM plans';
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
  trial_days, sort_order, is_active, features, popular FROM plans`;

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    price: row.price,
    currency: row.currency,
    duration: String(row.duration),
    billingCycle: row.billing_cycle,
    trialDays: row.trial_days,
    sortOrder: row.sort_order,
    isActive: row.is_active,
    features: row.features,
    popular: row.popular,
  };
}

/**
 * The plans list as the answer's JSON (server/platform/jsonList.ts), each plan named and ordered as
 * `toPlan` writes it (test/server/platform/json-list.test.ts compares the two).
 */
export const PLAN_LIST = `SELECT id, slug, name, description, price::text AS price, currency, duration::text AS duration,
  billing_cycle AS "billingCycle", trial_days AS "trialDays", sort_order AS "sortOrder", is_active AS "isActive", features, popular
  FROM plans WHERE ($1::text IS NULL OR type = $1) AND ($2::boolean IS NULL OR is_active = $2) ORDER BY sort_order, id`;

export async function listPlans(db: Db, filter: { type?: string | undefined; isActive?: boolean | undefined }): Promise<JsonList> {
  return jsonList(db, PLAN_LIST, [filter.type ?? null, filter.isActive ?? null]);
}

/** By numeric id or by slug (product.md#plan-by-slug: the wizard looks plans up by slug). */
export async function findPlan(q: Queryable, idOrSlug: string): Promise<Plan> {
  const byId = /^\d{1,9}$/.test(idOrSlug);
  const result = await q.query<PlanRow>(`${PLAN_SELECT} WHERE ${byId ? 'id = $1::int' : 'slug = $1'}`, [idOrSlug]);
  const row = result.rows[0];
  if (!row) throw new HttpError(404, PAYMENT_MESSAGES.planNotFound);
  return toPlan(row);
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
