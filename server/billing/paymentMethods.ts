/**
 * The viewer's payment methods: saved cards (Maya's vault), the linked Maya wallet, and which method
 * a subscription renews on (change payment method: takes effect in the next billing cycle; the period
 * already paid is not charged again; a PAST_DUE one is charged at once for the overdue period).
 */
import { hasControlCharacters, messages, type SavedCard, type WalletLink } from '../../src/api/schemas';
import { cardExpiresAt, newCardError } from '../../src/lib/card';
import { randomBytes } from 'node:crypto';
import { GatewayError, VERIFIED_CARD, type RedirectUrls } from '../gateway/maya';
import { contactOf } from '../identity/users';
import { now } from '../platform/clock';
import { HttpError } from '../platform/http';
import type { BillingDeps } from './deps';
import { addBillingPeriod } from '../../src/lib/billingPeriod';
import { NO_CONSENT, nextPeriodPrice, recordRenewalConsent, renews, requireRenewalConsent, type ConsentRequest } from './consent';
import { gatewayHttpError, PAYMENT_METHOD_MESSAGES, PLAN_CHANGE_MESSAGES } from './messages';
import { formatDateTime } from '../../src/lib/dates';
import { changeableSubscription, immediateAttemptAt } from './subscriptions';

/* ----------------------------------------------------------------- cards */

/** The viewer's customer at Maya, made on first use. */
async function mayaCustomer(deps: BillingDeps, userId: string): Promise<string> {
  const { db } = deps;
  const known = (await db.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [userId])).rows[0];
  if (known) return known.customer_id;
  const user = await contactOf(db, userId);
  const customer = await deps.gateway.createCustomer({
    firstName: user.firstName, lastName: user.lastName, contact: { email: user.email, ...(user.phoneNumber ? { phone: user.phoneNumber } : {}) },
  });
  const at = await now(db);
  await db.query('INSERT INTO maya_customers (user_id, customer_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING', [userId, customer.id, at]);
  return (await db.query<{ customer_id: string }>('SELECT customer_id FROM maya_customers WHERE user_id = $1', [userId])).rows[0]!.customer_id;
}

/**
 * The viewer's default card (only a verified card is ever the default), or the card `cardTokenId`
 * whatever its state; null when there is none.
 */
export async function savedCard(deps: Pick<BillingDeps, 'db'>, userId: string, cardTokenId?: string): Promise<SavedCard | null> {
  const row = (
    await deps.db.query<{ card_token_id: string; card_type: string; first6: string; last4: string; masked_pan: string | null; state: string; is_default: boolean; created_at: Date; updated_at: Date }>(
      `SELECT card_token_id, card_type, first6, last4, masked_pan, state, is_default, created_at, updated_at FROM saved_cards
       WHERE user_id = $1 AND ${cardTokenId ? 'card_token_id = $2' : `is_default AND state = '${VERIFIED_CARD}'`} ORDER BY updated_at DESC LIMIT 1`,
      cardTokenId ? [userId, cardTokenId] : [userId],
    )
  ).rows[0];
  if (!row) return null;
  return {
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    cardTokenId: row.card_token_id,
    cardType: row.card_type,
    first6: row.first6,
    last4: row.last4,
    maskedPan: row.masked_pan ?? row.last4,
    walletType: 'VAULT',
    state: row.state,
    default: row.is_default,
  };
}

/**
 * Saves a card in Maya's vault (card rules: src/lib/card.ts, the same the form applies). As Maya
 * documents, the card is PRE_VERIFICATION until the viewer confirms it with the bank on its
 * `verificationUrl` (3-D Secure at save time); it can be charged, and becomes the default if the
 * viewer asked, only once Maya reports it VERIFIED (`cardVerified`). Only Maya's token, its masked
 * number, the first six and last four digits and the brand are kept.
 */
export async function saveCard(
  deps: BillingDeps,
  userId: string,
  card: { number: string; expMonth: string; expYear: string; cvc: string; isDefault: boolean; returnTo?: string | undefined },
): Promise<SavedCard & { verificationUrl: string | null }> {
  const { db, gateway } = deps;
  const number = card.number.replace(/\s+/g, '');
  const refused = newCardError({ number, expMonth: card.expMonth, expYear: card.expYear }, await now(db));
  if (refused) throw new HttpError(400, refused);
  // Maya sends the viewer back to our address for this verification (no id of Maya's is in it).
  const reference = `SB-CARD-${randomBytes(8).toString('hex').toUpperCase()}`;
  let saved;
  let customerId: string;
  try {
    customerId = await mayaCustomer(deps, userId);
    const token = await gateway.createPaymentToken({ number, expMonth: card.expMonth, expYear: card.expYear, cvc: card.cvc });
    saved = await gateway.addCustomerCard(customerId, {
      paymentTokenId: token.paymentTokenId, isDefault: card.isDefault, redirectUrl: cardReturnUrls(deps.publicBaseUrl, reference), requestReferenceNumber: reference,
    });
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayHttpError(error);
    throw error;
  }
  const verified = saved.state === VERIFIED_CARD;
  await db.transaction(async (tx) => {
    const stamp = await now(tx);
    if (verified && card.isDefault) await tx.query('UPDATE saved_cards SET is_default = false, updated_at = $2 WHERE user_id = $1', [userId, stamp]);
    await tx.query(
      `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, state, is_default, wants_default, masked_pan, customer_id,
         verification_ref, return_to, created_at, updated_at, exp_month, exp_year, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15, $16)`,
      [saved.cardTokenId, userId, saved.cardType, number.slice(0, 6), number.slice(-4), saved.state, verified && card.isDefault, card.isDefault,
        saved.maskedPan, customerId, reference, card.returnTo ?? null, stamp,
        // The expiry as typed (Maya's card answer has none): for the notice before a renewal it would fail (product.md#card-expiry).
        Number(card.expMonth), Number(card.expYear), cardExpiresAt(Number(card.expMonth), Number(card.expYear))],
    );
  });
  const stored = (await savedCard(deps, userId, saved.cardTokenId))!;
  return { ...stored, verificationUrl: verified ? null : (saved.verificationUrl ?? null) };
}

/** Where Maya sends the viewer after the card's verification: our return address for that card. */
function cardReturnUrls(publicBaseUrl: string, reference: string) {
  const url = (outcome: string) => `${publicBaseUrl}/api/v1/mobile/payment/cards/return/${reference}?outcome=${outcome}`;
  return { success: url('success'), failure: url('failure'), cancel: url('cancel') };
}

/**
 * The viewer is back from the card's verification: the outcome in the address is not believed; the
 * card is read again at Maya. A verified card becomes the default if the viewer asked for it. Answers
 * where to send the browser: the app path the viewer left from, with `card=verified|failed` (and
 * `card-id`, the card's token, when verified).
 */
export async function cardVerified(deps: BillingDeps, reference: string): Promise<string> {
  const { db, gateway } = deps;
  const row = /^SB-CARD-[0-9A-F]{16}$/.test(reference)
    ? (
        await db.query<{ card_token_id: string; user_id: string; customer_id: string | null; wants_default: boolean; return_to: string | null; state: string }>(
          'SELECT card_token_id, user_id, customer_id, wants_default, return_to, state FROM saved_cards WHERE verification_ref = $1',
          [reference],
        )
      ).rows[0]
    : undefined;
  if (!row) return `${deps.publicBaseUrl}/subscription?card=failed`;
  let state = row.state;
  if (row.customer_id && state !== VERIFIED_CARD) {
    try {
      state = (await gateway.listCustomerCards(row.customer_id)).find((card) => card.cardTokenId === row.card_token_id)?.state ?? state;
    } catch (error) {
      deps.log(`gateway: could not read the cards of a customer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await db.transaction(async (tx) => {
    const at = await now(tx);
    const verified = state === VERIFIED_CARD;
    if (verified && row.wants_default) await tx.query('UPDATE saved_cards SET is_default = false, updated_at = $2 WHERE user_id = $1 AND card_token_id <> $3', [row.user_id, at, row.card_token_id]);
    await tx.query('UPDATE saved_cards SET state = $2, is_default = (is_default OR ($3 AND wants_default)), updated_at = $4 WHERE card_token_id = $1', [
      row.card_token_id, state, verified, at,
    ]);
  });
  const back = new URL(row.return_to ?? '/subscription/change-payment-method', deps.publicBaseUrl);
  back.searchParams.set('card', state === VERIFIED_CARD ? 'verified' : 'failed');
  // Which card it was: the page carries on with it at once when it is the one saved as the default
  // (the viewer already pressed Save for it), instead of asking for a second press.
  if (state === VERIFIED_CARD) back.searchParams.set('card-id', row.card_token_id);
  return `${deps.publicBaseUrl}${back.pathname}${back.search}`;
}

/** A card the viewer may be charged on: theirs, known at Maya, and verified. */
export async function chargeableCard(db: BillingDeps['db'], userId: string, cardTokenId: string): Promise<{ customerId: string | null; verified: boolean } | null> {
  const card = (
    await db.query<{ customer_id: string | null; state: string }>('SELECT customer_id, state FROM saved_cards WHERE card_token_id = $1 AND user_id = $2', [cardTokenId, userId])
  ).rows[0];
  return card ? { customerId: card.customer_id, verified: card.state === VERIFIED_CARD } : null;
}

/* ----------------------------------------------------------------- the Maya wallet */

/** The viewer's linked wallet as Maya knows it now; null when none is linked (or Maya no longer knows it). */
export async function walletLink(deps: Pick<BillingDeps, 'db' | 'gateway'>, userId: string): Promise<WalletLink | null> {
  const row = (await deps.db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
  if (!row) return null;
  try {
    const link = await deps.gateway.getWalletLink(row.link_id);
    // Maya's demo reads a link as linked once it has a customer; before that it is not usable.
    if (!link.customer) return null;
    return { linkId: row.link_id, profileId: link.profileId ?? '', card: { state: link.card?.state ?? 'VERIFIED' }, customer: link.customer };
  } catch (error) {
    if (error instanceof GatewayError && error.status === 404) return null; // not authorized (yet), declined or unlinked at Maya
    throw gatewayHttpError(new GatewayError(0, 'ERROR', 'gateway error'));
  }
}

/** Starts linking a wallet: Maya's page, then back to one of our own addresses. */
export async function startWalletLink(deps: BillingDeps, userId: string, redirectUrl: RedirectUrls): Promise<{ linkId: string; redirectUrl: string }> {
  const origin = new URL(deps.publicBaseUrl).origin;
  // The gateway is sent the addresses as checked and normalised here, never the strings as received.
  const checked = Object.fromEntries(
    Object.entries(redirectUrl).map(([key, address]) => {
      const url = new URL(address);
      if (url.origin !== origin) throw new HttpError(400, PAYMENT_METHOD_MESSAGES.foreignRedirect);
      return [key, url.href];
    }),
  ) as RedirectUrls;
  let created;
  try {
    created = await deps.gateway.createWalletLink({ redirectUrl: checked, requestReferenceNumber: `SB-LINK-${Date.now().toString(36).toUpperCase()}` });
  } catch (error) {
    throw gatewayHttpError(error instanceof GatewayError ? error : new GatewayError(0, 'ERROR', 'gateway error'));
  }
  const at = await now(deps.db);
  await deps.db.query(
    `INSERT INTO wallet_links (user_id, link_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (user_id) DO UPDATE SET link_id = EXCLUDED.link_id, updated_at = EXCLUDED.updated_at`,
    [userId, created.linkId, at],
  );
  return { linkId: created.linkId, redirectUrl: created.redirectUrl };
}

export async function unlinkWallet(deps: BillingDeps, userId: string): Promise<void> {
  const { db } = deps;
  const row = (await db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
  if (!row) throw new HttpError(404, PAYMENT_METHOD_MESSAGES.noWalletLinked);
  try {
    await deps.gateway.deleteWalletLink(row.link_id);
  } catch (error) {
    // A link Maya no longer knows is unlinked already; anything else is worth retrying.
    if (!(error instanceof GatewayError && error.status === 404)) throw gatewayHttpError(new GatewayError(0, 'ERROR', 'gateway error'));
  }
  await db.query('DELETE FROM wallet_links WHERE user_id = $1 AND link_id = $2', [userId, row.link_id]);
}

/* ----------------------------------------------------------------- the method a subscription renews on */

/** True when any key or string value, at any depth, holds a control character. */
function holdsControlCharacters(value: unknown): boolean {
  if (typeof value === 'string') return hasControlCharacters(value);
  if (Array.isArray(value)) return value.some(holdsControlCharacters);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, inner]) => hasControlCharacters(key) || holdsControlCharacters(inner));
  return false;
}

function parseDetails(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpError(400, PLAN_CHANGE_MESSAGES.badDetails);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new HttpError(400, PLAN_CHANGE_MESSAGES.badDetails);
  // JSON escapes ("\u0000") become control characters only once parsed: PostgreSQL refuses a NUL.
  if (holdsControlCharacters(parsed)) throw new HttpError(400, messages.controlCharacters());
  return parsed as Record<string, unknown>;
}

export async function changePaymentMethod(
  deps: BillingDeps,
  userId: string,
  request: { subscriptionId: string; paymentMethod: 'MAYA_VAULT' | 'MAYA_WALLET' | 'MAYA_CHECKOUT'; paymentMethodDetails?: string | undefined },
  consent: ConsentRequest = NO_CONSENT,
): Promise<{ message: string; chargeAt: string | null }> {
  const { db, gateway } = deps;
  const at = await now(db);
  const current = await changeableSubscription(db, userId, at, request.subscriptionId, PLAN_CHANGE_MESSAGES.voucherMethod);
  const given = parseDetails(request.paymentMethodDetails);
  let details: Record<string, unknown>;
  if (request.paymentMethod === 'MAYA_VAULT') {
    // The card named (ours, beyond the contract), else the viewer's default card; it must be chargeable.
    const named = typeof given.cardTokenId === 'string' ? given.cardTokenId : null;
    const card = (
      await db.query<{ card_token_id: string; customer_id: string | null; state: string }>(
        `SELECT card_token_id, customer_id, state FROM saved_cards WHERE user_id = $1 AND ${named ? 'card_token_id = $2' : `is_default AND state = '${VERIFIED_CARD}'`} ORDER BY updated_at DESC LIMIT 1`,
        named ? [userId, named] : [userId],
      )
    ).rows[0];
    if (!card) throw new HttpError(400, named ? PLAN_CHANGE_MESSAGES.cardNotFound : PLAN_CHANGE_MESSAGES.noCard);
    if (!card.customer_id) throw new HttpError(400, PLAN_CHANGE_MESSAGES.cardNotFound);
    if (card.state !== VERIFIED_CARD) throw new HttpError(400, PAYMENT_METHOD_MESSAGES.cardNotVerified);
    details = { cardTokenId: card.card_token_id };
  } else if (request.paymentMethod === 'MAYA_WALLET') {
    const linkId = typeof given.mayaWalletId === 'string' ? given.mayaWalletId : '';
    const row = (await db.query<{ link_id: string }>('SELECT link_id FROM wallet_links WHERE user_id = $1', [userId])).rows[0];
    if (!linkId || !row || row.link_id !== linkId) throw new HttpError(400, PLAN_CHANGE_MESSAGES.walletNotLinked);
    try {
      await gateway.getWalletLink(linkId);
    } catch (error) {
      if (error instanceof GatewayError && error.status === 404) throw new HttpError(400, PLAN_CHANGE_MESSAGES.walletNotLinked);
      throw gatewayHttpError(new GatewayError(0, 'ERROR', 'gateway error'));
    }
    details = { mayaWalletId: linkId };
  } else {
    details = {};
  }
  // The method it already renews on: nothing is written, and the viewer is told so (a PAST_DUE one is
  // still tried again at once: the viewer may have put money on the same card).
  const same =
    current.payment_method === request.paymentMethod &&
    (request.paymentMethod === 'MAYA_CHECKOUT' ||
      Object.entries(details).every(([key, value]) => current.payment_details?.[key] === value));
  const pastDue = current.status === 'PAST_DUE';
  if (same && !pastDue) return { message: PLAN_CHANGE_MESSAGES.methodUnchanged, chargeAt: null };
  // A canceled subscription stays canceled (it renews on nothing); an active one renews on a card or
  // wallet and reminds on checkout. A past-due one (product.md#dunning) is charged at once on the new
  // card or wallet, which is also what it renews on afterwards (at most IMMEDIATE_ATTEMPTS_A_DAY such
  // attempts a Manila day, then at the next scheduled retry); one moved to checkout is no longer charged
  // by itself: the viewer pays the overdue period with Renew now.
  // A subscription that renews on the new card or wallet (ACTIVE, or PAST_DUE and charged on it now) is
  // agreed to first (product.md#renewal-consent); a canceled one renews on nothing.
  const consentNeeded = renews(request.paymentMethod) && (current.status === 'ACTIVE' || pastDue) && current.end_date !== null;
  if (consentNeeded) requireRenewalConsent(consent);
  const next = pastDue && request.paymentMethod !== 'MAYA_CHECKOUT' && current.end_date ? await immediateAttemptAt(db, current.id, current.end_date, at) : null;
  await db.transaction(async (tx) => {
    if (consentNeeded && renews(request.paymentMethod)) {
      const price = await nextPeriodPrice(tx, current.id);
      // PAST_DUE: the overdue period is charged on it now, and the next renewal is at that period's end.
      const renewsOn = pastDue ? addBillingPeriod(current.end_date!, price.cycle, price.duration) : current.end_date!;
      await recordRenewalConsent(tx, consent, {
        userId, action: 'METHOD_CHANGE', paymentMethod: request.paymentMethod, subscriptionId: current.id, at,
        terms: { renewsOn, amount: price.amount, currency: price.currency },
      });
    }
    await tx.query(
      `UPDATE subscriptions SET payment_method = $2, payment_details = $3,
         auto_renew = (status IN ('ACTIVE', 'PAST_DUE') AND $2 <> 'MAYA_CHECKOUT'),
         next_attempt_at = CASE WHEN status = 'PAST_DUE' THEN $6::timestamptz ELSE next_attempt_at END,
         updated_at = $4
       WHERE id = $1 AND user_id = $5`,
      [current.id, request.paymentMethod, JSON.stringify(details), at, userId, next],
    );
  });
  // What the viewer is told depends on when the overdue period is charged (product.md#method-while-past-due).
  if (!pastDue) return { message: PLAN_CHANGE_MESSAGES.methodUpdated, chargeAt: null };
  if (request.paymentMethod === 'MAYA_CHECKOUT') return { message: PLAN_CHANGE_MESSAGES.methodUpdatedPayByCheckout, chargeAt: null };
  if (next && next.getTime() <= at.getTime()) return { message: PLAN_CHANGE_MESSAGES.methodUpdatedChargingNow, chargeAt: next.toISOString() };
  if (next) return { message: PLAN_CHANGE_MESSAGES.methodUpdatedChargingOn(formatDateTime(next)), chargeAt: null };
  return { message: PLAN_CHANGE_MESSAGES.methodUpdatedPastDue, chargeAt: null };
}
