/**
 * The money invariants of issue 32 (design.md "Money at the seams"), read from the database: the
 * API's subscriptions and payment records against what the local Maya sandbox holds. The generated
 * interleavings (test/server/billing/interleavings.test.ts) check them after every step, the renewal
 * chaos test (test/postgres/renewal-chaos.test.ts) at its end.
 *
 * (a) At most one live subscription per viewer: ACTIVE, PAST_DUE or CANCELED, begun, and either its
 *     access not ended (end date ahead) or one the engine would still charge (PAST_DUE, or ACTIVE
 *     auto-renewing on a card or wallet past its end date: due).
 * (b) What Maya charged minus what was reversed equals the periods granted: the sum of the sandbox's
 *     PAYMENT_SUCCESS payments (less anything refunded, except what an operator gave back as goodwill:
 *     docs/product.md#back-office) equals the sum of PAYMENT_SUCCESS records (and those an operator gave back) that
 *     name an existing subscription, plus charges still settling (d). Each such record is matched to a
 *     charge at Maya (by Maya's id, else by reference number), each charge to at most one record.
 * (c) No period without its charge: every subscription a payment created (a card, wallet or checkout
 *     one that is not a voucher's and not in the seed) has exactly one PAYMENT_SUCCESS record naming it.
 * (d) No charge older than a minute (billing clock) without a period or a reversal: a success at Maya
 *     that no record accounts for is allowed only while younger than `settlingMs`.
 * (e) Every sale documented once (issue 34, product.md#invoices): each successful payment record (not a
 *     voucher, something charged) has exactly one invoice, for its total, whose VATable sales and VAT
 *     add up to it; each payment whose paying charge was given back (a record that was paid and reads
 *     VOIDED or REFUNDED now) has one credit memo naming that invoice, and no other has one; each series'
 *     numbers run 1..last with no gap or repeat (where the database has the tables: migration 015).
 *
 * Rows written before the test (the seed: payments recorded with no charge at the sandbox, periods no
 * payment created) are left out when the database has `seeded_subscriptions` / `seeded_payment_records`
 * copies of them (test/server/support/billing-helpers.ts makes them; the chaos test too).
 */

/** A database to read: `(sql, params) => db.query(sql, params)` for the API's Db or a pg client. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are read field by field below
export type MoneyQuery = (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>;

export interface MoneyInvariantOptions {
  /**
   * How long (billing clock) a charge no record accounts for may still be settling (default a minute);
   * 0 once everything has had its chance to settle: then none may be left.
   */
  settlingMs?: number;
}

export type MoneyRule = 'a' | 'b' | 'c' | 'd' | 'e';
export interface MoneyViolation {
  rule: MoneyRule;
  text: string;
}

export const MONEY_RULES: Record<MoneyRule, string> = {
  a: 'one live subscription per viewer',
  b: "Maya's charges minus reversals = periods granted",
  c: 'no period without its charge',
  d: 'no charge older than a minute without a period or a reversal',
  e: 'every successful payment has one invoice, every reversal of one a credit memo, numbers without gaps',
};

export class MoneyInvariantError extends Error {
  constructor(
    readonly violations: MoneyViolation[],
    readonly at: Date,
  ) {
    super(
      `money invariants broken (billing clock ${at.toISOString()}):\n` +
        violations.map((v) => `  (${v.rule}) ${MONEY_RULES[v.rule]}: ${v.text}`).join('\n'),
    );
    this.name = 'MoneyInvariantError';
  }

  /** The first rule broken, in the order a, b, c, d, e. */
  get firstRule(): MoneyRule {
    return [...this.violations].sort((x, y) => x.rule.localeCompare(y.rule))[0]!.rule;
  }
}

/** Invariants evaluated by one call (a, b, c, d, e). */
export const CHECKS_PER_CALL = 5;

const cents = (decimal: string | number) => Math.round(Number(decimal) * 100);
const peso = (c: number) => `₱${(c / 100).toFixed(2)}`;
const day = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 16) : '—');

async function hasColumn(query: MoneyQuery, table: string, column: string): Promise<boolean> {
  return (await query('SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = $2) AS present', [table, column])).rows[0]!.present as boolean;
}

async function hasTable(query: MoneyQuery, name: string): Promise<boolean> {
  return (await query('SELECT to_regclass($1) IS NOT NULL AS present', [name])).rows[0]!.present as boolean;
}

/**
 * Checks (a) to (e) now; throws a MoneyInvariantError naming every violation. Answers the number of
 * invariants checked (CHECKS_PER_CALL).
 */
export async function checkMoneyInvariants(query: MoneyQuery, options: MoneyInvariantOptions = {}): Promise<number> {
  const settlingMs = options.settlingMs ?? 60_000;
  const at = new Date((await query('SELECT COALESCE((SELECT fixed_at FROM server_clock WHERE id), now()) AS at')).rows[0]!.at as string);
  const seededSubscriptions = (await hasTable(query, 'seeded_subscriptions')) ? 'SELECT id FROM seeded_subscriptions' : 'SELECT NULL::uuid WHERE false';
  const seededRecords = (await hasTable(query, 'seeded_payment_records')) ? 'SELECT id FROM seeded_payment_records' : 'SELECT NULL::uuid WHERE false';
  const violations: MoneyViolation[] = [];

  // (a)
  const live = await query(
    `SELECT u.email, array_agg(s.status || ' ' || coalesce(s.payment_method, '-') || ' ' || p.name || ' ' || to_char(s.start_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI')
         || '→' || coalesce(to_char(s.end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI'), '…') || ' ' || s.id ORDER BY s.start_date, s.seq) AS rows
     FROM subscriptions s JOIN users u ON u.id = s.user_id JOIN plans p ON p.id = s.plan_id
     WHERE s.status IN ('ACTIVE', 'PAST_DUE', 'CANCELED') AND s.start_date <= $1
       AND (s.end_date IS NULL OR s.end_date > $1 OR s.status = 'PAST_DUE'
            OR (s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')))
     GROUP BY u.email HAVING count(*) > 1 ORDER BY u.email LIMIT 20`,
    [at],
  );
  for (const row of live.rows) violations.push({ rule: 'a', text: `${row.email} has ${row.rows.length}: ${(row.rows as string[]).join('; ')}` });

  // (b) and (d). An operator's void or refund (the back office, issue 35: docs/product.md#back-office) is a
  // goodwill refund: the viewer keeps the period it paid. Each is recorded with its audit entry
  // (gateway_attempts.operator_audit_id, migration 017), and counted here as if Maya still held it:
  // what Maya charged, less what the system gave back, equals the periods granted.
  const goodwillTable = await hasColumn(query, 'gateway_attempts', 'operator_audit_id');
  const goodwill = goodwillTable
    ? `SELECT o.reference_id AS reference, sum(o.amount) AS amount FROM gateway_attempts o
       WHERE o.reverses IS NOT NULL AND o.operator_audit_id IS NOT NULL AND o.outcome = 'SUCCEEDED' GROUP BY o.reference_id`
    : 'SELECT NULL::text AS reference, NULL::numeric AS amount WHERE false';
  const charges = (
    await query(
      `SELECT p.id::text AS id, p.request_reference_number AS reference, (p.amount - p.refunded_amount + COALESCE(g.amount, 0))::text AS amount, p.updated_at
       FROM sandbox_payments p LEFT JOIN (${goodwill}) g ON g.reference = p.request_reference_number
       WHERE p.status = 'PAYMENT_SUCCESS' OR (p.status IN ('VOIDED', 'REFUNDED') AND g.amount IS NOT NULL) ORDER BY p.created_at, p.id`,
    )
  ).rows as Array<{ id: string; reference: string; amount: string; updated_at: Date }>;
  /** A record paid, and given back whole by an operator: its period stands (goodwill). */
  const goodwillRecord = goodwillTable ? `(r.status IN ('VOIDED', 'REFUNDED') AND r.gateway_response->'reversal'->>'by' = 'operator')` : 'false';
  const records = (
    await query(
      `SELECT r.id::text AS id, r.reference_id AS reference, r.checkout_id, r.total_amount::text AS amount, r.subscription_id::text AS subscription_id,
         (s.id IS NOT NULL) AS has_period, r.payment_method
       FROM payment_records r LEFT JOIN subscriptions s ON s.id = r.subscription_id
       WHERE (r.status = 'PAYMENT_SUCCESS' OR ${goodwillRecord}) AND r.payment_method <> 'VOUCHER' AND r.id NOT IN (${seededRecords})
       ORDER BY r.created_at, r.seq`,
    )
  ).rows as Array<{ id: string; reference: string; checkout_id: string | null; amount: string; subscription_id: string | null; has_period: boolean }>;
  const granted = records.filter((r) => r.has_period);
  for (const r of records.filter((x) => !x.has_period)) {
    violations.push({ rule: 'b', text: `payment ${r.id} (${r.reference}, ${peso(cents(r.amount))}) is PAYMENT_SUCCESS but pays no period${r.subscription_id ? ` (subscription ${r.subscription_id} is gone)` : ''}` });
  }
  const matched = new Map<string, string>(); // charge id → record id
  const unmatchedRecords = new Set(granted.map((r) => r.id));
  for (const r of granted) {
    const charge = charges.find((c) => c.id === r.checkout_id && !matched.has(c.id));
    if (charge) {
      matched.set(charge.id, r.id);
      unmatchedRecords.delete(r.id);
    }
  }
  for (const r of granted.filter((x) => unmatchedRecords.has(x.id))) {
    const charge = charges.find((c) => c.reference === r.reference && !matched.has(c.id));
    if (charge) {
      matched.set(charge.id, r.id);
      unmatchedRecords.delete(r.id);
    }
  }
  for (const r of granted.filter((x) => unmatchedRecords.has(x.id))) {
    violations.push({ rule: 'b', text: `period of subscription ${r.subscription_id} granted by payment ${r.id} (${r.reference}, ${peso(cents(r.amount))}) with no charge at Maya (or it was reversed)` });
  }
  let settling = 0;
  for (const c of charges.filter((x) => !matched.has(x.id))) {
    const age = at.getTime() - new Date(c.updated_at).getTime();
    if (settlingMs === 0 || age > settlingMs) {
      violations.push({ rule: 'd', text: `Maya's charge ${c.id} (${c.reference}, ${peso(cents(c.amount))}, ${Math.round(age / 1000)} s old${settlingMs === 0 ? ', after settling' : ''}) pays no period and was not reversed` });
    } else settling += cents(c.amount);
  }
  const charged = charges.reduce((sum, c) => sum + cents(c.amount), 0);
  const paidFor = granted.reduce((sum, r) => sum + cents(r.amount), 0);
  if (charged !== paidFor + settling) {
    violations.push({ rule: 'b', text: `Maya holds ${peso(charged)} net of reversals, the periods granted ${peso(paidFor)}${settling ? ` (+ ${peso(settling)} still settling)` : ''}` });
  }

  // (c)
  const periods = await query(
    `SELECT s.id, s.status, s.payment_method, p.name, s.start_date, s.end_date, count(r.id)::int AS payments
     FROM subscriptions s JOIN plans p ON p.id = s.plan_id
     LEFT JOIN payment_records r ON r.subscription_id = s.id AND (r.status = 'PAYMENT_SUCCESS' OR ${goodwillRecord})
     WHERE s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET', 'MAYA_CHECKOUT') AND p.type <> 'VOUCHER' AND s.id NOT IN (${seededSubscriptions})
     GROUP BY s.id, p.name HAVING count(r.id) <> 1 ORDER BY s.start_date LIMIT 20`,
  );
  for (const s of periods.rows) {
    violations.push({ rule: 'c', text: `subscription ${s.id} (${s.status} ${s.payment_method} ${s.name} ${day(s.start_date)}→${day(s.end_date)}) has ${s.payments} successful payments` });
  }

  // (e)
  if (await hasTable(query, 'tax_documents')) {
    const undocumented = await query(
      `SELECT r.id, r.reference_id, r.status, r.total_amount::text AS total, count(d.id)::int AS invoices, min(d.total::text) AS invoiced,
         bool_and(d.vatable + d.vat = d.total) AS adds_up
       FROM payment_records r LEFT JOIN tax_documents d ON d.payment_record_id = r.id AND d.kind = 'INVOICE'
       WHERE (r.status = 'PAYMENT_SUCCESS' AND r.payment_method <> 'VOUCHER' AND r.total_amount > 0) OR d.id IS NOT NULL
       GROUP BY r.id
       HAVING NOT (r.status IN ('PAYMENT_SUCCESS', 'VOIDED', 'REFUNDED') AND count(d.id) = 1 AND min(d.total) = r.total_amount AND bool_and(d.vatable + d.vat = d.total))
          AND NOT (r.status <> 'PAYMENT_SUCCESS' AND count(d.id) = 0)
       LIMIT 20`,
    );
    for (const r of undocumented.rows) {
      violations.push({ rule: 'e', text: `payment ${r.id} (${r.reference_id}, ${r.status}, ${peso(cents(r.total))}) has ${r.invoices} invoice(s)${r.invoiced ? ` for ${peso(cents(r.invoiced))}${r.adds_up ? '' : ', VATable + VAT ≠ total'}` : ''}` });
    }
    // What operators gave back (the back office: in one or more parts) has one memo per part, for that part;
    // any other reversal of a paid payment, one memo for the whole invoice.
    const parts = goodwillTable
      ? `(SELECT count(*) FROM gateway_attempts o WHERE o.record_id = r.id AND o.reverses IS NOT NULL AND o.operator_audit_id IS NOT NULL AND o.outcome = 'SUCCEEDED')`
      : '0';
    const partsTotal = goodwillTable
      ? `(SELECT COALESCE(sum(o.amount), 0) FROM gateway_attempts o WHERE o.record_id = r.id AND o.reverses IS NOT NULL AND o.operator_audit_id IS NOT NULL AND o.outcome = 'SUCCEEDED')`
      : '0';
    const memos = await query(
      `WITH per_invoice AS (
         SELECT i.number, r.status, i.total, count(m.id)::int AS memos, COALESCE(sum(m.total), 0) AS memo_total, bool_and(m.total = i.total) AS same_total,
           ${parts}::int AS parts, ${partsTotal} AS parts_total
         FROM tax_documents i JOIN payment_records r ON r.id = i.payment_record_id
         LEFT JOIN tax_documents m ON m.invoice_id = i.id AND m.kind = 'CREDIT_MEMO'
         WHERE i.kind = 'INVOICE'
         GROUP BY i.id, i.number, i.total, r.id, r.status
       )
       SELECT number, status, memos, CASE WHEN parts > 0 THEN memo_total = parts_total ELSE same_total END AS same_total FROM per_invoice
       WHERE CASE WHEN parts > 0 THEN memos <> parts OR memo_total <> parts_total
                  ELSE memos <> (CASE WHEN status IN ('VOIDED', 'REFUNDED') THEN 1 ELSE 0 END) OR NOT COALESCE(same_total, true) END
       LIMIT 20`,
    );
    for (const m of memos.rows) violations.push({ rule: 'e', text: `invoice ${m.number} of a ${m.status} payment has ${m.memos} credit memo(s)${m.same_total === false ? ' not for its total' : ''}` });
    const series = await query(
      `SELECT s.series, s.last::int AS last, count(d.id)::int AS issued, COALESCE(max(d.serial), 0)::int AS highest, count(DISTINCT d.serial)::int AS distinct_serials
       FROM document_series s LEFT JOIN tax_documents d ON d.kind = s.series GROUP BY s.series, s.last
       HAVING NOT (count(d.id) = s.last AND COALESCE(max(d.serial), 0) = s.last AND count(DISTINCT d.serial) = count(d.id))`,
    );
    for (const s of series.rows) violations.push({ rule: 'e', text: `series ${s.series}: counter at ${s.last}, ${s.issued} documents (${s.distinct_serials} distinct numbers, highest ${s.highest})` });
  }

  if (violations.length) throw new MoneyInvariantError(violations, at);
  return CHECKS_PER_CALL;
}
