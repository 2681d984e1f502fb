/**
 * The subscribe wizard's address (product.md#subscribe-wizard): `plan` (slug), `step` (1–3,
 * default 1), `payment-method` (card, maya, checkout) and, back from Maya's wallet page,
 * `wallet-link-status` (read and written through walletLink.address.ts, its one owner). One module reads
 * and writes the wizard's address, for the machine, the view, the wallet-link return addresses and the tests.
 */
import { routes } from '../../lib/route-paths';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import { readWalletLinkStatus, writeWalletLinkStatus, type WalletLinkOutcome } from '../walletLink/walletLink.address';

export type WizardStep = 1 | 2 | 3;
export type WizardMethod = 'card' | 'maya' | 'checkout';
export type WalletLinkStatus = WalletLinkOutcome;

export const WIZARD_METHODS: readonly WizardMethod[] = ['card', 'maya', 'checkout'];

export interface SubscribeLocation {
  plan: string | null;
  step: WizardStep;
  method: WizardMethod | null;
  /** 'invalid' when the parameter is there with a value the spec does not know. */
  walletLinkStatus: WalletLinkStatus | 'invalid' | null;
}

export const subscribeRoute = routes.subscribe;

const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function parse(_path: string, search: string): SubscribeLocation {
  const params = new URLSearchParams(search);
  const slug = params.get('plan');
  const stepNumber = Number(params.get('step') ?? '1');
  const method = params.get('payment-method');
  return {
    plan: slug && SLUG.test(slug) ? slug : null,
    step: stepNumber === 2 || stepNumber === 3 ? stepNumber : 1,
    method: WIZARD_METHODS.includes(method as WizardMethod) ? (method as WizardMethod) : null,
    walletLinkStatus: readWalletLinkStatus(params),
  };
}

export function format(location: SubscribeLocation): string {
  const params = new URLSearchParams();
  if (location.plan) params.set('plan', location.plan);
  params.set('step', String(location.step));
  if (location.method) params.set('payment-method', location.method);
  writeWalletLinkStatus(params, location.walletLinkStatus);
  return `${routes.subscribe}?${params.toString()}`;
}

export function sameLocation(a: SubscribeLocation, b: SubscribeLocation): boolean {
  return a.plan === b.plan && a.step === b.step && a.method === b.method && a.walletLinkStatus === b.walletLinkStatus;
}

/** Where Maya's wallet page sends the viewer back to: step 2 with the wallet chosen (without a status). */
export function walletReturnPath(plan: string): string {
  return format({ plan, step: 2, method: 'maya', walletLinkStatus: null });
}

/**
 * What the wizard keeps with its history entries, never in the address: the card (Maya's token of a
 * card saved and confirmed on this account, and how to show it) or the wallet link chosen on step 2.
 * A reload of Confirm, or back and forward through the steps, finds them there and stays on the step
 * instead of falling back to step 2 (which left two step-2 entries in history).
 */
export interface WizardChoice {
  card: ChosenCard | null;
  linkId: string | null;
}

const TOKEN = /^[\x21-\x7e]{1,500}$/; // printable ASCII: what Maya's tokens and link ids are made of
const CARD_TYPES = /^[a-z-]{1,20}$/i;

/** The choice in a history entry's state; anything else (another page's state, an edited one) is no choice. */
export function readChoice(state: unknown): WizardChoice {
  const saved = (state as { wizard?: { card?: unknown; linkId?: unknown } } | null)?.wizard;
  const card = saved?.card as Partial<ChosenCard> | null | undefined;
  const validCard = card && typeof card.cardTokenId === 'string' && TOKEN.test(card.cardTokenId)
    && typeof card.cardType === 'string' && CARD_TYPES.test(card.cardType)
    && typeof card.last4 === 'string' && /^\d{4}$/.test(card.last4);
  const linkId = typeof saved?.linkId === 'string' && TOKEN.test(saved.linkId) ? saved.linkId : null;
  return { card: validCard ? { cardTokenId: card.cardTokenId!, cardType: card.cardType!, last4: card.last4! } : null, linkId };
}

/** The state written with a step's history entry. */
export function choiceState(choice: WizardChoice): { wizard: WizardChoice } {
  return { wizard: { card: choice.card, linkId: choice.linkId } };
}

/**
 * The failed result of a payment names the plan and the method tried (beyond product.md#payment-result's
 * `status`), so the result page's "Try again" reopens the wizard on that plan's payment step.
 */
export function failedResultPath(plan: string | null, method: WizardMethod | null): string {
  const params = new URLSearchParams({ status: 'failed' });
  if (plan && SLUG.test(plan)) params.set('plan', plan);
  if (plan && method) params.set('payment-method', method);
  return `${routes.payment}?${params.toString()}`;
}

/** "Try again" from a failed result: the payment step of the plan it names, else the wizard's start. */
export function tryAgainPath(resultSearch: string): string {
  const { plan, method } = parse(routes.payment, resultSearch);
  if (!plan) return format({ plan: null, step: 1, method: null, walletLinkStatus: null });
  const path = format({ plan, step: 2, method, walletLinkStatus: null });
  // After a card payment failed, the card form must not offer the same card already switched on.
  return method === 'card' ? `${path}&${AFTER_DECLINE}=declined` : path;
}

/** Marks a "Try again" after a refused card payment (read once on arrival; the wizard writes its address without it). */
const AFTER_DECLINE = 'after';

export function isAfterDecline(search: string): boolean {
  return new URLSearchParams(search).get(AFTER_DECLINE) === 'declined';
}
