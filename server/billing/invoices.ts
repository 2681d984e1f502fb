/**
 * Invoices and credit memos (issue 34, product.md#invoices). Every successful payment gets a sales
 * invoice, issued in the transaction that decides the payment a success (settlement.ts `decideRecord`,
 * whichever path asked: the engine's answer, a webhook, a return page, the reconciler, Renew now, a plan
 * change; the demo seed's paid payments at seed time); every void or refund of an invoiced payment gets
 * a credit memo naming the invoice, in the transaction that records the reversal. A voucher is not a
 * sale: no invoice.
 *
 * Numbers come from one gap-free counter per series (`document_series`), bumped in that same
 * transaction, after everything else it writes: the counter's row stays locked until the transaction
 * ends (two processes never take one number; a rollback gives it back). The document is a snapshot:
 * seller, buyer, plan names, period and money as they were then; the table refuses any UPDATE or DELETE.
 */
import type { PaymentMethod, TaxDocument } from '../../src/api/schemas';
import { cardTypeLabel } from '../../src/lib/card';
import { splitVat, VAT_RATE } from '../../src/lib/vat';
import type { Db, Queryable } from '../platform/db';
import type { Language } from '../platform/language';
import { translate } from '../platform/translate';
import { CHANGE_KEY, RENEWS_KEY } from './activation';

export type DocumentKind = 'INVOICE' | 'CREDIT_MEMO';
export type Purpose = 'PURCHASE' | 'RENEWAL' | 'PLAN_CHANGE';

/** The seller the documents name (settings: SELLER_NAME, SELLER_TIN, SELLER_ADDRESS). */
export interface Seller {
  name: string;
  /** With its branch code: 123-456-789-00000. */
  tin: string;
  address: string;
}

/** The sample seller migration 015 writes, named until settings give the real one. */
export const SAMPLE_SELLER: Seller = {
  name: 'Sine Bisaya (SAMPLE — not a registered seller)',
  tin: '000-000-000-00000',
  address: 'Sample address, Cebu City, Cebu 6000, Philippines',
};

/** At start: the seller of the settings, or the sample (marked as one) when none is set. */
export async function writeSeller(q: Queryable, seller: Seller | null): Promise<void> {
  const { name, tin, address } = seller ?? SAMPLE_SELLER;
  await q.query(
    `INSERT INTO invoice_seller (id, name, tin, address, sample, updated_at) VALUES (true, $1, $2, $3, $4, clock_timestamp())
     ON CONFLICT (id) DO UPDATE SET name = $1, tin = $2, address = $3, sample = $4, updated_at = clock_timestamp()
     WHERE (invoice_seller.name, invoice_seller.tin, invoice_seller.address, invoice_seller.sample) IS DISTINCT FROM ($1, $2, $3, $4)`,
    [name, tin, address, seller === null],
  );
}

/** What a document says it sold, in English (the sales book's words); `describe` writes it in another language. */
const DESCRIPTIONS: Record<Purpose, (plan: string) => string> = {
  PURCHASE: (plan) => `Premium subscription, ${plan} plan`,
  RENEWAL: (plan) => `Premium subscription renewal, ${plan} plan`,
  PLAN_CHANGE: (plan) => `Premium subscription, change to the ${plan} plan`,
};

/** The description in `language`, the plan named as that language names it. */
export const describe = (purpose: Purpose, planNames: Record<string, string>, language: Language) =>
  translate(DESCRIPTIONS[purpose](planNames[language] || planNames.en || 'Premium'), language);

interface IssueRow {
  id: string;
  user_id: string;
  status: string;
  reference_id: string;
  total: string;
  currency: string;
  payment_method: PaymentMethod;
  paid_at: Date;
  plan_id: number | null;
  details: Record<string, unknown> | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string;
  tin: string | null;
  language: Language;
  plan_name: string | null;
  plan_texts: Record<string, { name?: string }> | null;
  start_date: Date | null;
  end_date: Date | null;
  maya_id: string | null;
  card_type: string | null;
  card_last4: string | null;
  seller_name: string;
  seller_tin: string;
  seller_address: string;
  seller_sample: boolean;
}

/** Takes the series' next number, in the caller's transaction (the row stays locked until it ends). */
async function nextNumber(tx: Queryable, series: DocumentKind): Promise<{ serial: number; number: string }> {
  const row = (
    await tx.query<{ last: string; prefix: string }>(`UPDATE document_series SET last = last + 1 WHERE series = $1 RETURNING last::text AS last, prefix`, [series])
  ).rows[0];
  if (!row) throw new Error(`No document series ${series}`);
  return { serial: Number(row.last), number: `${row.prefix}${row.last.padStart(8, '0')}` };
}

/**
 * Issues the invoice of one successful payment record, unless it has one. Call it in the transaction
 * that decided the payment, after its other writes (the period's subscription is written: the
 * invoice names its dates). Answers the invoice's id, or null when the record is not an invoiced sale
 * (not paid, a voucher, nothing charged).
 */
export async function issueInvoice(tx: Queryable, recordId: string): Promise<string | null> {
  const found = (
    await tx.query<IssueRow & { invoice_id: string | null }>(
      `SELECT r.id, r.user_id, r.status, r.reference_id, r.total_amount::text AS total, r.currency, r.payment_method,
              COALESCE(r.paid_at, r.created_at) AS paid_at, r.plan_id, r.gateway_response->'details' AS details,
              u.first_name, u.middle_name, u.last_name, u.email, u.tin, u.language,
              p.name AS plan_name, p.texts AS plan_texts, s.start_date, s.end_date,
              COALESCE(a.maya_id, r.checkout_id) AS maya_id, c.card_type, c.last4 AS card_last4,
              se.name AS seller_name, se.tin AS seller_tin, se.address AS seller_address, se.sample AS seller_sample,
              (SELECT d.id FROM tax_documents d WHERE d.payment_record_id = r.id AND d.kind = 'INVOICE') AS invoice_id
       FROM payment_records r
       JOIN users u ON u.id = r.user_id
       CROSS JOIN invoice_seller se
       LEFT JOIN plans p ON p.id = r.plan_id
       LEFT JOIN subscriptions s ON s.id = r.subscription_id
       LEFT JOIN gateway_attempts a ON a.id = r.applied_attempt_id
       LEFT JOIN LATERAL (
         SELECT sc.card_type, sc.last4 FROM saved_cards sc
         WHERE r.payment_method = 'MAYA_VAULT' AND sc.user_id = r.user_id AND sc.card_token_id = COALESCE(
           a.method_details->>'cardTokenId', r.gateway_response->'details'->>'cardTokenId', s.payment_details->>'cardTokenId')
       ) c ON true
       WHERE r.id = $1`,
      [recordId],
    )
  ).rows[0];
  if (!found || found.invoice_id) return found?.invoice_id ?? null;
  if (found.status !== 'PAYMENT_SUCCESS' || found.payment_method === 'VOUCHER' || Number(found.total) <= 0) return null;
  const details = found.details ?? {};
  const purpose: Purpose = typeof details[RENEWS_KEY] === 'string' ? 'RENEWAL' : typeof details[CHANGE_KEY] === 'string' ? 'PLAN_CHANGE' : 'PURCHASE';
  const planNames: Record<string, string> = { en: found.plan_name ?? 'Premium' };
  for (const [language, texts] of Object.entries(found.plan_texts ?? {})) if (texts?.name) planNames[language] = texts.name;
  const money = splitVat(found.total);
  const buyer = [found.first_name, found.middle_name, found.last_name].filter((part) => part && part.trim()).join(' ');
  // Last: the number is taken after every other write of the transaction, so its lock is held briefly.
  const { serial, number } = await nextNumber(tx, 'INVOICE');
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO tax_documents (kind, serial, number, issued_at, user_id, payment_record_id, seller_name, seller_tin, seller_address, seller_sample,
       buyer_name, buyer_email, buyer_tin, description, purpose, plan_id, plan_names, period_start, period_end, vatable, vat, total, currency,
       payment_method, card_type, card_last4, reference_id, maya_payment_id, language)
     VALUES ('INVOICE', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19::numeric, $20::numeric, $21::numeric, $22,
       $23, $24, $25, $26, $27, $28) RETURNING id`,
    [serial, number, found.paid_at, found.user_id, found.id, found.seller_name, found.seller_tin, found.seller_address, found.seller_sample,
      buyer, found.email, found.tin, DESCRIPTIONS[purpose](planNames.en!), purpose, found.plan_id, JSON.stringify(planNames), found.start_date, found.end_date,
      money.vatable, money.vat, money.total, found.currency, found.payment_method,
      found.card_last4 ? cardTypeLabel(found.card_type ?? 'Card') : null, found.card_last4, found.reference_id, found.maya_id, found.language],
  );
  return inserted.rows[0]!.id;
}

/**
 * Issues the credit memo of a record's invoice, unless it has one: the payment was voided or refunded
 * (by us, or in Maya's dashboard). Call it in the transaction that records the reversal, with the
 * record locked. The memo copies its invoice (what is taken back), dated `at`. Answers its id, or null
 * when the record has no invoice.
 */
export async function issueCreditMemo(tx: Queryable, recordId: string, at: Date, part?: { amount: string; reversalAttemptId: string }): Promise<string | null> {
  // A part given back by an operator (the back office, server/ops/actions.ts): a memo of its own, for that
  // part (VAT split as sold), naming the reversal; any memo of the record already answers "it has one" otherwise.
  const invoice = (
    await tx.query<{ id: string; memo_id: string | null }>(
      `SELECT d.id, (SELECT m.id FROM tax_documents m WHERE m.invoice_id = d.id AND m.kind = 'CREDIT_MEMO'
         AND ($2::uuid IS NULL OR m.reversal_attempt_id = $2::uuid) ORDER BY m.serial LIMIT 1) AS memo_id
       FROM tax_documents d WHERE d.payment_record_id = $1 AND d.kind = 'INVOICE'`,
      [recordId, part?.reversalAttemptId ?? null],
    )
  ).rows[0];
  if (!invoice || invoice.memo_id) return invoice?.memo_id ?? null;
  if (!part) {
    // An operator's reversal on its way or made documents itself, part by part (its Maya webhook may decide
    // the record before the operator's answer is recorded): no memo of the whole beside it.
    const byOperator = await tx.query(
      `SELECT 1 FROM gateway_attempts WHERE record_id = $1 AND reverses IS NOT NULL AND operator_request_key IS NOT NULL AND outcome IN ('OPEN', 'UNKNOWN', 'SUCCEEDED') LIMIT 1`,
      [recordId],
    );
    if (byOperator.rows.length) return null;
  }
  const { serial, number } = await nextNumber(tx, 'CREDIT_MEMO');
  const money = part ? splitVat(part.amount) : null;
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO tax_documents (kind, serial, number, issued_at, user_id, payment_record_id, invoice_id, seller_name, seller_tin, seller_address, seller_sample,
       buyer_name, buyer_email, buyer_tin, description, purpose, plan_id, plan_names, period_start, period_end, vatable, vat, total, currency,
       payment_method, card_type, card_last4, reference_id, maya_payment_id, language, reversal_attempt_id)
     SELECT 'CREDIT_MEMO', $2, $3, $4, d.user_id, d.payment_record_id, d.id, d.seller_name, d.seller_tin, d.seller_address, d.seller_sample,
       d.buyer_name, d.buyer_email, d.buyer_tin, d.description, d.purpose, d.plan_id, d.plan_names, d.period_start, d.period_end,
       COALESCE($5::numeric, d.vatable), COALESCE($6::numeric, d.vat), COALESCE($7::numeric, d.total), d.currency,
       d.payment_method, d.card_type, d.card_last4, d.reference_id, d.maya_payment_id, d.language, $8::uuid
     FROM tax_documents d WHERE d.id = $1 RETURNING id`,
    [invoice.id, serial, number, at, money?.vatable ?? null, money?.vat ?? null, money?.total ?? null, part?.reversalAttemptId ?? null],
  );
  return inserted.rows[0]!.id;
}

/** A document's row as the reads select it. */
export interface DocumentRow {
  id: string;
  kind: DocumentKind;
  number: string;
  issued_at: Date;
  payment_record_id: string;
  invoice_id: string | null;
  invoice_number: string | null;
  seller_name: string;
  seller_tin: string;
  seller_address: string;
  seller_sample: boolean;
  buyer_name: string;
  buyer_email: string;
  buyer_tin: string | null;
  description: string;
  purpose: Purpose;
  plan_names: Record<string, string>;
  period_start: Date | null;
  period_end: Date | null;
  vatable: string;
  vat: string;
  total: string;
  currency: string;
  payment_method: PaymentMethod;
  card_type: string | null;
  card_last4: string | null;
  reference_id: string;
  maya_payment_id: string | null;
  language: Language;
}

export const DOCUMENT_SELECT = `SELECT d.id, d.kind, d.number, d.issued_at, d.payment_record_id, d.invoice_id,
    (SELECT i.number FROM tax_documents i WHERE i.id = d.invoice_id) AS invoice_number,
    d.seller_name, d.seller_tin, d.seller_address, d.seller_sample, d.buyer_name, d.buyer_email, d.buyer_tin, d.description, d.purpose,
    d.plan_names, d.period_start, d.period_end, d.vatable::text AS vatable, d.vat::text AS vat, d.total::text AS total, d.currency,
    d.payment_method, d.card_type, d.card_last4, d.reference_id, d.maya_payment_id, d.language
  FROM tax_documents d`;

/** The contract's shape (src/api/schemas.ts taxDocumentSchema), its words in `language`. */
export function toTaxDocument(row: DocumentRow, language: Language): TaxDocument {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    issuedAt: row.issued_at.toISOString(),
    paymentId: row.payment_record_id,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    seller: { name: row.seller_name, tin: row.seller_tin, address: row.seller_address, sample: row.seller_sample },
    buyer: { name: row.buyer_name, email: row.buyer_email, tin: row.buyer_tin },
    description: describe(row.purpose, row.plan_names, language),
    planName: row.plan_names[language] || row.plan_names.en || 'Premium',
    periodStart: row.period_start ? row.period_start.toISOString() : null,
    periodEnd: row.period_end ? row.period_end.toISOString() : null,
    vatableSales: row.vatable,
    vat: row.vat,
    vatRate: VAT_RATE,
    total: row.total,
    currency: row.currency,
    paymentMethod: row.payment_method,
    card: row.card_last4 ? { type: row.card_type ?? 'Card', last4: row.card_last4 } : null,
    referenceId: row.reference_id,
    mayaPaymentId: row.maya_payment_id,
  };
}

/** Every document of the viewer, newest first (also after their subscription ended). */
export async function documentsOf(db: Db, userId: string): Promise<DocumentRow[]> {
  return (await db.query<DocumentRow>(`${DOCUMENT_SELECT} WHERE d.user_id = $1 ORDER BY d.issued_at DESC, d.created_at DESC`, [userId])).rows;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the viewer's documents; null for another viewer's, or none. */
export async function documentOf(db: Db, userId: string, id: string): Promise<DocumentRow | null> {
  if (!UUID.test(id)) return null;
  return (await db.query<DocumentRow>(`${DOCUMENT_SELECT} WHERE d.id = $1 AND d.user_id = $2`, [id, userId])).rows[0] ?? null;
}

/** The invoice of one of the viewer's payments; null for another viewer's, an unpaid one, or none. */
export async function invoiceOfPayment(db: Db, userId: string, paymentId: string): Promise<DocumentRow | null> {
  if (!UUID.test(paymentId)) return null;
  return (await db.query<DocumentRow>(`${DOCUMENT_SELECT} WHERE d.payment_record_id = $1 AND d.kind = 'INVOICE' AND d.user_id = $2`, [paymentId, userId])).rows[0] ?? null;
}
