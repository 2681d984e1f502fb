/** What billing's use-cases are given: the database, the Maya client, a log, and the app's address. */
import type { Gateway } from '../gateway/maya';
import type { Db } from '../platform/db';
import type { Mailer } from '../platform/mail';

export interface BillingDeps {
  db: Db;
  gateway: Gateway;
  log: (line: string) => void;
  /** The app's public address: the gateway sends browsers back to it after a hosted page. */
  publicBaseUrl: string;
  /** Receipts and dunning mail (absent: the reconciler mails what is due). */
  mailer?: Mailer;
}

/** Where Maya sends the browser back after a hosted page, for one payment record (never believed: settlement.ts asks Maya). */
export function returnUrls(publicBaseUrl: string, recordId: string) {
  const url = (outcome: string) => `${publicBaseUrl}/api/v1/mobile/payment/return/${recordId}?outcome=${outcome}`;
  return { success: url('success'), failure: url('failure'), cancel: url('cancel') };
}
