/**
 * Auto-renewal told and agreed (issue 34, docs/product.md#renewal-consent). A purchase, plan change,
 * change of payment method or reactivation that renews on a card or Maya wallet carries the viewer's
 * consent: the sentence the app showed ('Renews automatically on {date} at {price} until you cancel. …')
 * and its language. The server refuses one without it (400), checks that the words are that sentence in
 * that language, and records them beside its own rendering of the sentence with the date and price it
 * computed itself, in the transaction that makes the change.
 */
import type { PaymentMethod, RenewalConsent } from '../../src/api/schemas';
import { isRenewalConsentSentence, renewalConsentText, type RenewalTerms } from '../../src/lib/renewalConsent';
import type { Queryable } from '../platform/db';
import { HttpError } from '../platform/http';

export const RENEWAL_CONSENT_MESSAGES = {
  required: 'Please agree to automatic renewal to continue.',
  notTheSentence: 'The renewal terms you agreed to are not the ones offered now. Please reload the page and agree again.',
} as const;

export type ConsentAction = 'PURCHASE' | 'PLAN_CHANGE' | 'METHOD_CHANGE' | 'REACTIVATE';

/** What a request brings for the consent: the field (absent in the spec's requests) and who sent it. */
export interface ConsentRequest {
  consent: RenewalConsent | undefined;
  clientAddress: string | null;
}

export const NO_CONSENT: ConsentRequest = { consent: undefined, clientAddress: null };

export const renews = (method: PaymentMethod | string | null | undefined): method is 'MAYA_VAULT' | 'MAYA_WALLET' =>
  method === 'MAYA_VAULT' || method === 'MAYA_WALLET';

/** The consent, or a 400 saying what to do: none or not ticked, or words that are not the sentence. */
export function requireRenewalConsent(request: ConsentRequest): RenewalConsent {
  const { consent } = request;
  if (!consent || consent.accepted !== true) throw new HttpError(400, RENEWAL_CONSENT_MESSAGES.required);
  if (!isRenewalConsentSentence(consent.text, consent.language)) throw new HttpError(400, RENEWAL_CONSENT_MESSAGES.notTheSentence);
  return consent;
}

export interface ConsentRecord {
  userId: string;
  action: ConsentAction;
  paymentMethod: 'MAYA_VAULT' | 'MAYA_WALLET';
  terms: RenewalTerms & { renewsOn: Date };
  subscriptionId?: string | null;
  paymentRecordId?: string | null;
  at: Date;
}

/** Writes the consent (checked by requireRenewalConsent) with the server's own sentence; rows are only added. */
export async function recordRenewalConsent(q: Queryable, request: ConsentRequest, record: ConsentRecord): Promise<void> {
  const consent = requireRenewalConsent(request);
  const serverText = renewalConsentText(record.terms, consent.language);
  await q.query(
    `INSERT INTO renewal_consents (user_id, subscription_id, payment_record_id, action, payment_method, language, shown_text, server_text,
       text_matches, price, currency, renews_on, client_address, given_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [record.userId, record.subscriptionId ?? null, record.paymentRecordId ?? null, record.action, record.paymentMethod, consent.language, consent.text,
      serverText, consent.text === serverText, record.terms.amount, record.terms.currency, record.terms.renewsOn, request.clientAddress, record.at],
  );
}

/** The price the subscription's next period is billed at: a scheduled move down's plan, else its own. */
export async function nextPeriodPrice(q: Queryable, subscriptionId: string): Promise<{ amount: string; currency: string; cycle: string; duration: number }> {
  const row = (
    await q.query<{ price: string; currency: string; billing_cycle: string; duration: number }>(
      `SELECT p.price::text AS price, p.currency, p.billing_cycle, p.duration FROM subscriptions s JOIN plans p ON p.id = COALESCE(s.scheduled_plan_id, s.plan_id) WHERE s.id = $1`,
      [subscriptionId],
    )
  ).rows[0]!;
  return { amount: row.price, currency: row.currency, cycle: row.billing_cycle, duration: Number(row.duration) };
}
