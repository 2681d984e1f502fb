/**
 * Receipts (issue 32, product.md#receipt): every successful payment is mailed its receipt, once, in the
 * viewer's language, dated when it was paid; since issue 34 that is its invoice's mail (the invoice's
 * number, "VAT included", a link to the invoice page; product.md#invoices), the receipt's for a payment
 * paid before invoices were: a purchase by card,
 * wallet or checkout, a plan change, Renew now, and a renewal however it was applied (the engine's
 * answer, a webhook, the reconciler). The record is the outbox: `receipt_mailed_at` is claimed by one
 * guarded UPDATE before the mail goes, so two processes never mail one receipt; the path that learns of
 * the payment mails it at once, and the reconciler mails any one left behind (a process killed between).
 */
import { formatDate } from '../../src/lib/dates';
import { formatPrice } from '../../src/lib/format';
import { DISPLAY_TIME_ZONE, PRODUCT_NAME } from '../../src/lib/product';
import type { PaymentMethod } from '../../src/api/schemas';
import type { Queryable } from '../platform/db';
import type { Language } from '../platform/language';
import { RENEWS_KEY } from './activation';
import type { BillingDeps } from './deps';

interface ReceiptRow {
  id: string;
  reference_id: string;
  total_amount: string;
  currency: string;
  payment_method: PaymentMethod;
  renewal: boolean;
  email: string;
  first_name: string;
  language: Language;
  plan_name: string | null;
  start_date: Date | null;
  end_date: Date | null;
  /** Its invoice (issue 34): issued with the payment's decision; none for a payment paid before invoices were. */
  invoice_id: string | null;
  invoice_number: string | null;
}

// The plan's name in the viewer's language (product.md#plan-texts), else its English.
const CLAIMED = `RETURNING r.id, r.reference_id, r.total_amount::text AS total_amount, r.currency, r.payment_method,
  (r.gateway_response->'details'->>'${RENEWS_KEY}') IS NOT NULL AS renewal,
  (SELECT u.email FROM users u WHERE u.id = r.user_id) AS email, (SELECT u.first_name FROM users u WHERE u.id = r.user_id) AS first_name,
  (SELECT u.language FROM users u WHERE u.id = r.user_id) AS language, (SELECT COALESCE(NULLIF(p.texts->(SELECT u.language FROM users u WHERE u.id = r.user_id)->>'name', ''), p.name) FROM plans p WHERE p.id = r.plan_id) AS plan_name,
  (SELECT s.start_date FROM subscriptions s WHERE s.id = r.subscription_id) AS start_date, (SELECT s.end_date FROM subscriptions s WHERE s.id = r.subscription_id) AS end_date,
  (SELECT d.id FROM tax_documents d WHERE d.payment_record_id = r.id AND d.kind = 'INVOICE') AS invoice_id,
  (SELECT d.number FROM tax_documents d WHERE d.payment_record_id = r.id AND d.kind = 'INVOICE') AS invoice_number`;

const METHOD_NAME: Partial<Record<PaymentMethod, string>> = { MAYA_VAULT: 'your saved card', MAYA_WALLET: 'Maya Wallet', MAYA_CHECKOUT: 'Maya Checkout' };

async function send(deps: Pick<BillingDeps, 'mailer' | 'publicBaseUrl' | 'log'>, row: ReceiptRow): Promise<void> {
  const plan = row.plan_name ?? 'Premium';
  // Dates and money as the receipt page writes them in the reader's language (product.md#server-dates, #prices).
  const day = (date: Date) => formatDate(date, DISPLAY_TIME_ZONE, row.language);
  const period = row.start_date && row.end_date ? `${day(row.start_date)} to ${day(row.end_date)}` : '';
  const amount = formatPrice(row.total_amount, row.currency);
  const method = METHOD_NAME[row.payment_method] ?? 'Maya';
  if (row.invoice_id && row.invoice_number) {
    // The invoice mail (issue 34, product.md#invoices): its number, VAT included, a link to the invoice page (and its PDF).
    const link = `${deps.publicBaseUrl}/subscription/invoices/${row.invoice_id}`;
    const number = row.invoice_number;
    await deps.mailer!.send({
      to: row.email,
      language: row.language,
      subject: row.renewal ? `${PRODUCT_NAME}: invoice ${number} for your ${plan} renewal` : `${PRODUCT_NAME}: invoice ${number} for your ${plan} payment`,
      text: row.renewal
        ? `Hi ${row.first_name}, your Premium subscription renewed. Plan: ${plan}. Period: ${period}. Amount: ${amount}, VAT included, paid with ${method}. Reference: ${row.reference_id}. Your invoice ${number}, to view or download as PDF: ${link}`
        : `Hi ${row.first_name}, thank you for your payment. Your Premium subscription is active. Plan: ${plan}. Period: ${period}. Amount: ${amount}, VAT included, paid with ${method}. Reference: ${row.reference_id}. Your invoice ${number}, to view or download as PDF: ${link}`,
    });
    return;
  }
  const link = `${deps.publicBaseUrl}/subscription/receipts/${row.id}`;
  await deps.mailer!.send({
    to: row.email,
    language: row.language,
    subject: row.renewal ? `${PRODUCT_NAME}: receipt for your ${plan} renewal` : `${PRODUCT_NAME}: receipt for your ${plan} payment`,
    text: row.renewal
      ? `Hi ${row.first_name}, your Premium subscription renewed. Plan: ${plan}. Period: ${period}. Amount: ${amount}, paid with ${method}. Reference: ${row.reference_id}. Your receipt, to print or save as PDF: ${link}`
      : `Hi ${row.first_name}, thank you for your payment. Your Premium subscription is active. Plan: ${plan}. Period: ${period}. Amount: ${amount}, paid with ${method}. Reference: ${row.reference_id}. Your receipt, to print or save as PDF: ${link}`,
  });
}

/** Mails the receipt of one paid record, unless it was mailed already (or there is no mailer here). */
export async function mailReceiptOf(deps: Pick<BillingDeps, 'db' | 'mailer' | 'publicBaseUrl' | 'log'>, recordId: string): Promise<boolean> {
  if (!deps.mailer) return false;
  const claimed = await deps.db.query<ReceiptRow>(
    `UPDATE payment_records r SET receipt_mailed_at = clock_timestamp()
     WHERE r.id = $1 AND r.status = 'PAYMENT_SUCCESS' AND r.paid_at IS NOT NULL AND r.receipt_mailed_at IS NULL ${CLAIMED}`,
    [recordId],
  );
  const row = claimed.rows[0];
  if (!row) return false;
  await sendLogged(deps, row);
  return true;
}

/** Every receipt still due (the reconciler's pass); answers how many were mailed. */
export async function mailDueReceipts(deps: Pick<BillingDeps, 'db' | 'mailer' | 'publicBaseUrl' | 'log'>, limit = 100): Promise<number> {
  if (!deps.mailer) return 0;
  const claimed = await claimDue(deps.db, limit);
  for (const row of claimed) await sendLogged(deps, row);
  return claimed.length;
}

async function claimDue(q: Queryable, limit: number): Promise<ReceiptRow[]> {
  return (
    await q.query<ReceiptRow>(
      `UPDATE payment_records r SET receipt_mailed_at = clock_timestamp() WHERE r.id IN (
         SELECT id FROM payment_records WHERE receipt_mailed_at IS NULL AND paid_at IS NOT NULL AND status = 'PAYMENT_SUCCESS'
         ORDER BY paid_at LIMIT $1 FOR UPDATE SKIP LOCKED) ${CLAIMED}`,
      [limit],
    )
  ).rows;
}

async function sendLogged(deps: Pick<BillingDeps, 'mailer' | 'publicBaseUrl' | 'log'>, row: ReceiptRow) {
  try {
    await send(deps, row);
  } catch (error) {
    deps.log(`billing: the receipt of payment ${row.id} could not be mailed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
