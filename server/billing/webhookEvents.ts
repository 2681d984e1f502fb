/**
 * Maya's webhooks as received (issue 35, migration 017): verified or not, why, and the payment they
 * named, for the back office's timeline and its queue of unverified webhooks. Never the body, a
 * signature or a key. An unverified delivery's ids are kept as sent (shortened) but name no viewer:
 * anyone could have sent them.
 */
import type { Db } from '../platform/db';

export interface ReceivedWebhook {
  verified: boolean;
  reason: string | null;
  mayaPaymentId?: string | null;
  referenceId?: string | null;
  /** What the record is after it (verified), or what the body claimed (unverified). */
  status?: string | null;
}

/** Unverified deliveries recorded per hour at most. */
export const UNVERIFIED_PER_HOUR = 1000;

const short = (value: unknown, max: number) => (typeof value === 'string' && value.length ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, max) : null);

/** Writes one delivery; a failure to write it never changes the webhook's answer. */
export async function recordWebhook(db: Db, event: ReceivedWebhook, log: (line: string) => void): Promise<void> {
  await db
    .query(
      // Unverified deliveries are anyone's: at most UNVERIFIED_PER_HOUR are kept an hour, so a flood cannot fill the table.
      `INSERT INTO webhook_events (verified, reason, maya_payment_id, reference_id, status, user_id)
       SELECT $1::boolean, $2, $3, $4, $5, CASE WHEN $1::boolean THEN (SELECT user_id FROM payment_records WHERE reference_id = $4) END
       WHERE $1::boolean OR (SELECT count(*) FROM webhook_events WHERE NOT verified AND received_at > clock_timestamp() - interval '1 hour') < ${UNVERIFIED_PER_HOUR}`,
      [event.verified, short(event.reason, 200), short(event.mayaPaymentId, 200), short(event.referenceId, 64), short(event.status, 40)],
    )
    .catch((error: unknown) => log(`webhook: could not record a delivery: ${error instanceof Error ? error.message : String(error)}`));
}

/** The ids an unverified body claims, read without trusting it (for the queue only). */
export function claimedIds(raw: string): { mayaPaymentId: string | null; referenceId: string | null; status: string | null } {
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    return { mayaPaymentId: short(body.id, 200), referenceId: short(body.requestReferenceNumber, 64), status: short(body.status, 40) };
  } catch {
    return { mayaPaymentId: null, referenceId: null, status: null };
  }
}
