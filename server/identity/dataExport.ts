/**
 * "Download my data" (issue 36, docs/product.md#data-export): everything the service holds about the
 * viewer, as a JSON file and a readable HTML page. Asked for with POST /account/export, prepared by a
 * job (accountJobs.ts), ready within a minute, offered for 24 hours. Each download link is single use,
 * for one file, and works only with its owner's session as well (the route checks the bearer token).
 *
 * Every read below is by the viewer's own id, and no secret is selected: no password hash, no token
 * or code of any kind, no card number or token, no Maya customer, card or link id, no mail body (a
 * mail may carry a code or a sign-in link); the tests plant such values and search the files.
 */
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../platform/db';
import { now } from '../platform/clock';
import { HttpError } from '../platform/http';
import type { Language } from '../platform/language';
import { sha256 } from './tokens';
import { translate } from '../platform/translate';
import { PRODUCT_NAME, DISPLAY_TIME_ZONE } from '../../src/lib/product';
import { formatDateTime } from '../../src/lib/dates';

export const EXPORT_OFFERED_MS = 24 * 60 * 60 * 1000;
/** A download link lives a few minutes: the app asks for one when the viewer presses Download. */
export const EXPORT_LINK_TTL_MS = 5 * 60 * 1000;
/** An export still PREPARING after this long lost its job: asking again starts a new one. */
export const EXPORT_STALE_MS = 2 * 60 * 1000;

export const EXPORT_MESSAGES = {
  started: 'We are preparing your data. It will be ready within a minute.',
  notReady: 'Your data is not ready to download.',
  linkUsed: 'This download link has been used or has expired. Ask for a new one.',
};

export type ExportFormat = 'json' | 'html';

export interface ExportState {
  state: 'NONE' | 'PREPARING' | 'READY' | 'FAILED' | 'EXPIRED';
  requestedAt: string | null;
  readyAt: string | null;
  expiresAt: string | null;
}

interface ExportRow {
  id: string;
  state: 'PREPARING' | 'READY' | 'FAILED' | 'EXPIRED';
  requested_at: Date;
  ready_at: Date | null;
  expires_at: Date | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function latest(q: Queryable, userId: string): Promise<ExportRow | null> {
  return (
    await q.query<ExportRow>('SELECT id, state, requested_at, ready_at, expires_at FROM data_exports WHERE user_id = $1 ORDER BY requested_at DESC LIMIT 1', [userId])
  ).rows[0] ?? null;
}

/** The state of the viewer's latest export; a ready one past its 24 hours is dropped here (EXPIRED). */
export async function exportState(db: Db, userId: string): Promise<ExportState> {
  const row = await latest(db, userId);
  if (!row) return { state: 'NONE', requestedAt: null, readyAt: null, expiresAt: null };
  const at = await now(db);
  if (row.state === 'READY' && row.expires_at && row.expires_at <= at) {
    await db.query(`UPDATE data_exports SET state = 'EXPIRED', json = NULL, html = NULL WHERE id = $1`, [row.id]);
    row.state = 'EXPIRED';
  }
  // A copy still being prepared long after its minute lost its job (a process killed before it was
  // queued): it has failed, and the viewer can ask again (the app stops waiting).
  if (row.state === 'PREPARING' && at.getTime() - row.requested_at.getTime() >= EXPORT_STALE_MS) {
    await db.query(`UPDATE data_exports SET state = 'FAILED' WHERE id = $1 AND state = 'PREPARING'`, [row.id]);
    row.state = 'FAILED';
  }
  return { state: row.state, requestedAt: iso(row.requested_at), readyAt: iso(row.ready_at), expiresAt: iso(row.expires_at) };
}

/**
 * A new export, or the one already being prepared (a second press does not start a second job).
 * Answers its id and whether a job must be started for it.
 */
export async function requestExport(db: Db, userId: string): Promise<{ id: string; start: boolean }> {
  return db.transaction(async (tx) => {
    const at = await now(tx);
    // One request at a time per viewer: the row of the user is the lock.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const row = await latest(tx, userId);
    if (row?.state === 'PREPARING' && at.getTime() - row.requested_at.getTime() < EXPORT_STALE_MS) return { id: row.id, start: false };
    // Earlier files go: only the newest export is offered.
    await tx.query(`UPDATE data_exports SET state = 'EXPIRED', json = NULL, html = NULL WHERE user_id = $1 AND state <> 'EXPIRED'`, [userId]);
    const created = await tx.query<{ id: string }>(`INSERT INTO data_exports (user_id, state, requested_at) VALUES ($1, 'PREPARING', $2) RETURNING id`, [userId, at]);
    return { id: created.rows[0]!.id, start: true };
  });
}

/** The job: gathers the viewer's data and writes both files; safe to run twice (a retried job). */
export async function prepareExport(db: Db, exportId: string): Promise<boolean> {
  const row = (await db.query<{ user_id: string; state: string }>('SELECT user_id, state FROM data_exports WHERE id = $1', [exportId])).rows[0];
  if (!row || row.state !== 'PREPARING') return false;
  await db.query('UPDATE data_exports SET attempts = attempts + 1 WHERE id = $1', [exportId]);
  const data = await gatherData(db, row.user_id);
  if (!data) {
    await db.query(`UPDATE data_exports SET state = 'FAILED' WHERE id = $1`, [exportId]);
    return false;
  }
  const at = await now(db);
  const done = await db.query(
    `UPDATE data_exports SET state = 'READY', ready_at = $2, expires_at = $3, json = $4, html = $5 WHERE id = $1 AND state = 'PREPARING' RETURNING id`,
    [exportId, at, new Date(at.getTime() + EXPORT_OFFERED_MS), JSON.stringify(data, null, 2), exportHtml(data)],
  );
  return done.rows.length > 0;
}

/**
 * Drops what is no longer offered (the account jobs run it every few minutes): files past their 24
 * hours, and link rows used or expired for a day.
 */
export async function dropExpiredExports(db: Db): Promise<void> {
  const at = await now(db);
  await db.query(`UPDATE data_exports SET state = 'EXPIRED', json = NULL, html = NULL WHERE state = 'READY' AND expires_at <= $1`, [at]);
  await db.query(`DELETE FROM data_export_links WHERE expires_at <= $1`, [new Date(at.getTime() - 24 * 60 * 60 * 1000)]);
}

/** A job that failed for good: the export says so, and the viewer can ask again. */
export async function failExport(db: Db, exportId: string): Promise<void> {
  await db.query(`UPDATE data_exports SET state = 'FAILED' WHERE id = $1 AND state = 'PREPARING'`, [exportId]);
}

/** A single-use link for one file of the viewer's ready export. */
export async function exportLink(db: Db, userId: string, format: ExportFormat): Promise<{ token: string; expiresAt: string }> {
  await exportState(db, userId); // drops an expired one first
  const row = await latest(db, userId);
  if (!row || row.state !== 'READY') throw new HttpError(409, EXPORT_MESSAGES.notReady);
  const token = randomBytes(32).toString('base64url');
  const at = await now(db);
  const expires = new Date(Math.min(at.getTime() + EXPORT_LINK_TTL_MS, row.expires_at!.getTime()));
  await db.query('INSERT INTO data_export_links (token_hash, export_id, user_id, format, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    sha256(token), row.id, userId, format, expires,
  ]);
  return { token, expiresAt: expires.toISOString() };
}

/**
 * The file a link gives, once: the link must be the viewer's own (another account's link is answered
 * as an unknown one), unused and unexpired, and its export still offered. Taken in one UPDATE.
 */
export async function downloadExport(db: Db, userId: string, token: string): Promise<{ format: ExportFormat; body: string }> {
  const at = await now(db);
  const taken = await db.query<{ format: ExportFormat; body: string | null }>(
    `UPDATE data_export_links l SET used_at = $3
     FROM data_exports e
     WHERE l.token_hash = $1 AND l.user_id = $2 AND l.used_at IS NULL AND l.expires_at > $3
       AND e.id = l.export_id AND e.user_id = $2 AND e.state = 'READY' AND e.expires_at > $3
     RETURNING l.format, CASE WHEN l.format = 'json' THEN e.json ELSE e.html END AS body`,
    [sha256(token), userId, at],
  );
  const file = taken.rows[0];
  if (!file || file.body === null) throw new HttpError(404, EXPORT_MESSAGES.linkUsed);
  return { format: file.format, body: file.body };
}

/* ----------------------------------------------------------------- what is held */

export interface ExportData {
  about: { service: string; preparedAt: string; format: string };
  profile: {
    email: string;
    firstName: string;
    middleName: string | null;
    lastName: string;
    birthdate: string | null;
    phoneNumber: string | null;
    gender: string | null;
    tin: string | null;
    photo: string | null;
    language: Language;
    createdAt: string;
    updatedAt: string;
  };
  sessions: Array<Record<string, unknown>>;
  subscriptions: Array<Record<string, unknown>>;
  payments: Array<Record<string, unknown>>;
  invoices: Array<Record<string, unknown>>;
  savedCards: Array<Record<string, unknown>>;
  walletLinked: { linkedSince: string } | null;
  renewalConsents: Array<Record<string, unknown>>;
  voucherRedemptions: Array<Record<string, unknown>>;
  mailsSent: Array<Record<string, unknown>>;
}

/** Dates as ISO strings, numerics as their text, everything else as read. */
function plain(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())] = value instanceof Date ? value.toISOString() : value;
  return out;
}

async function rows(q: Queryable, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  return (await q.query<Record<string, unknown>>(sql, params)).rows.map(plain);
}

export async function gatherData(db: Db, userId: string): Promise<ExportData | null> {
  const user = (
    await db.query<{
      email: string; first_name: string; middle_name: string | null; last_name: string; birthdate: string | Date | null; phone_number: string | null;
      gender: string | null; tin: string | null; photo: string | null; language: Language; created_at: Date; updated_at: Date; deleted_at: Date | null;
    }>(
      `SELECT email, first_name, middle_name, last_name, birthdate::text AS birthdate, phone_number, gender, tin, photo, language, created_at, updated_at, deleted_at
       FROM users WHERE id = $1`,
      [userId],
    )
  ).rows[0];
  if (!user || user.deleted_at) return null;
  const [sessions, subscriptions, payments, invoices, savedCards, wallet, renewalConsents, voucherRedemptions, mailsSent] = await Promise.all([
    rows(
      db,
      `SELECT created_at AS signed_in_at, revoked_at AS signed_out_at, last_used_at, user_agent AS device, client_address, place
       FROM sessions WHERE user_id = $1 ORDER BY created_at DESC`,
      [userId],
    ),
    rows(
      db,
      `SELECT p.name AS plan, p.billing_cycle, s.status, s.start_date, s.end_date, s.payment_method, s.auto_renew, s.canceled_date, s.canceled_reason, s.created_at
       FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.user_id = $1 ORDER BY s.start_date DESC, s.seq DESC`,
      [userId],
    ),
    rows(
      db,
      `SELECT r.reference_id AS reference, p.name AS plan, r.status, r.amount::text AS amount, r.discounted_amount::text AS discount, r.total_amount::text AS total,
         r.currency, r.payment_method, r.retry_count, r.created_at, r.updated_at
       FROM payment_records r LEFT JOIN plans p ON p.id = r.plan_id WHERE r.user_id = $1 ORDER BY r.created_at DESC, r.seq DESC`,
      [userId],
    ),
    rows(
      db,
      `SELECT kind, number, issued_at, seller_name, seller_tin, seller_address, buyer_name, buyer_email, buyer_tin, description, period_start, period_end,
         vatable::text AS vatable, vat::text AS vat, total::text AS total, currency, payment_method, card_type, card_last4, reference_id AS reference
       FROM tax_documents WHERE user_id = $1 ORDER BY issued_at DESC, serial DESC`,
      [userId],
    ),
    rows(db, 'SELECT card_type, last4, exp_month, exp_year, state, is_default, created_at FROM saved_cards WHERE user_id = $1 ORDER BY created_at', [userId]),
    db.query<{ created_at: Date }>('SELECT created_at FROM wallet_links WHERE user_id = $1', [userId]),
    rows(
      db,
      `SELECT action, payment_method, language, shown_text, price::text AS price, currency, renews_on, client_address, given_at
       FROM renewal_consents WHERE user_id = $1 ORDER BY given_at DESC`,
      [userId],
    ),
    rows(db, 'SELECT code, redeemed_at FROM voucher_redemptions WHERE user_id = $1 ORDER BY redeemed_at DESC', [userId]),
    // The subject and when: never the body (codes, sign-in and reset links ride in bodies).
    // The mail log (every mail but those with a code, issue 35) and, in development, the dev mailbox's code mails.
    rows(
      db,
      `SELECT subject, sent_at FROM (
         SELECT subject, sent_at FROM mail_log WHERE user_id = $1
         UNION ALL SELECT subject, sent_at FROM mailbox WHERE lower(to_email) = lower($2) AND otp IS NOT NULL) m
       ORDER BY sent_at DESC`,
      [userId, user.email],
    ),
  ]);
  const at = await now(db);
  return {
    about: { service: 'Sine Bisaya', preparedAt: at.toISOString(), format: 'Sine Bisaya data export, version 1' },
    profile: {
      email: user.email, firstName: user.first_name, middleName: user.middle_name, lastName: user.last_name,
      birthdate: typeof user.birthdate === 'string' ? user.birthdate : iso(user.birthdate), phoneNumber: user.phone_number, gender: user.gender, tin: user.tin,
      photo: user.photo, language: user.language, createdAt: user.created_at.toISOString(), updatedAt: user.updated_at.toISOString(),
    },
    sessions,
    subscriptions,
    payments,
    invoices,
    savedCards,
    walletLinked: wallet.rows[0] ? { linkedSince: wallet.rows[0].created_at.toISOString() } : null,
    renewalConsents,
    voucherRedemptions,
    mailsSent,
  };
}

/* ----------------------------------------------------------------- the readable page */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The page's headings, in English (the catalogs' words); written in the viewer's language by translate(). */
const HEADINGS: Record<Exclude<keyof ExportData, 'about'>, string> = {
  profile: 'Profile', sessions: 'Sign-ins', subscriptions: 'Subscriptions', payments: 'Payments', invoices: 'Invoices and credit memos',
  savedCards: 'Saved cards', walletLinked: 'Maya wallet', renewalConsents: 'Auto-renewal consents', voucherRedemptions: 'Vouchers redeemed',
  mailsSent: 'Emails we sent you',
};

/** Each field's label on the readable page, in English (the catalogs' words; translate() writes them in the viewer's language). */
const LABELS: Record<string, string> = {
  email: 'Email', firstName: 'First Name', middleName: 'Middle Name', lastName: 'Last Name', birthdate: 'Birthdate', phoneNumber: 'Phone number',
  gender: 'Gender', tin: 'TIN', photo: 'Photo', language: 'Language', createdAt: 'Created', updatedAt: 'Updated', signedInAt: 'Signed in',
  signedOutAt: 'Signed out', plan: 'Plan', billingCycle: 'Billing cycle', status: 'Status', startDate: 'Start Date', endDate: 'End Date',
  paymentMethod: 'Payment Method', autoRenew: 'Auto-renew', canceledDate: 'Canceled', canceledReason: 'Reason', reference: 'Reference',
  amount: 'Amount', discount: 'Discount', total: 'Total', currency: 'Currency', retryCount: 'Retries', kind: 'Kind', number: 'Number',
  issuedAt: 'Issued', sellerName: 'Seller', sellerTin: 'Seller TIN', sellerAddress: 'Seller address', buyerName: 'Buyer', buyerEmail: 'Buyer email',
  buyerTin: 'Buyer TIN', description: 'Description', periodStart: 'Period start', periodEnd: 'Period end', vatable: 'VATable sales', vat: 'VAT',
  cardType: 'Card', last4: 'Last four digits', expMonth: 'Expiry month', expYear: 'Expiry year', state: 'State', isDefault: 'Default',
  linkedSince: 'Linked since', action: 'Action', shownText: 'Words shown', price: 'Price', renewsOn: 'Renews on', clientAddress: 'Address',
  givenAt: 'Given', code: 'Code', redeemedAt: 'Redeemed', subject: 'Subject', sentAt: 'Sent', lastUsedAt: 'Last used', device: 'Device',
  place: 'Place',
};

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function table(items: Array<Record<string, unknown>>, say: (english: string) => string, language: Language): string {
  if (!items.length) return `<p>${escapeHtml(say('Nothing.'))}</p>`;
  const keys = [...new Set(items.flatMap((item) => Object.keys(item)))];
  // Instants as the app writes them (Manila, the reader's language); the JSON file keeps them exact (ISO).
  const cell = (value: unknown) =>
    escapeHtml(value === null || value === undefined ? '' : typeof value === 'string' && ISO_INSTANT.test(value) ? formatDateTime(value, DISPLAY_TIME_ZONE, language) : String(value));
  const label = (key: string) => escapeHtml(LABELS[key] ? say(LABELS[key]) : key);
  return `<div class="scroll"><table><thead><tr>${keys.map((k) => `<th scope="col">${label(k)}</th>`).join('')}</tr></thead><tbody>${items
    .map((item) => `<tr>${keys.map((k) => `<td>${cell(item[k])}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

export function exportHtml(data: ExportData): string {
  const language = data.profile.language;
  const say = (english: string) => translate(english, language);
  const title = say(`Your data at ${PRODUCT_NAME}`);
  const sections = (Object.keys(data) as Array<keyof ExportData>)
    .filter((key): key is Exclude<keyof ExportData, 'about'> => key !== 'about')
    .map((key) => {
      const value = data[key];
      const items = Array.isArray(value) ? value : value ? [value as Record<string, unknown>] : [];
      return `<section><h2>${escapeHtml(say(HEADINGS[key]))}</h2>${table(items, say, language)}</section>`;
    });
  const prepared = formatDateTime(data.about.preparedAt, DISPLAY_TIME_ZONE, language);
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;line-height:1.5;margin:1.5rem;color:#1a1a1a}table{border-collapse:collapse;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}.scroll{overflow-x:auto}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(say(`Everything ${PRODUCT_NAME} holds about your account, prepared ${prepared}.`))}</p>${sections.join('\n')}</main></body></html>`;
}
