/**
 * The subscribe wizard's address (product.md#subscribe-wizard): `plan` (slug), `step` (1–3,
 * default 1), `payment-method` (card, maya, checkout) and, back from Maya's wallet page,
 * `wallet-link-status` (success, failed, canceled). One module reads and writes it, for the machine,
 * the view, the wallet-link return addresses and the tests.
 */
import { routes } from '../../lib/route-paths';

export type WizardStep = 1 | 2 | 3;
export type WizardMethod = 'card' | 'maya' | 'checkout';
export type WalletLinkStatus = 'success' | 'failed' | 'canceled';

export const WIZARD_METHODS: readonly WizardMethod[] = ['card', 'maya', 'checkout'];
export const WALLET_LINK_STATUSES: readonly WalletLinkStatus[] = ['success', 'failed', 'canceled'];

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
  const status = params.get('wallet-link-status');
  return {
    plan: slug && SLUG.test(slug) ? slug : null,
    step: stepNumber === 2 || stepNumber === 3 ? stepNumber : 1,
    method: WIZARD_METHODS.includes(method as WizardMethod) ? (method as WizardMethod) : null,
    walletLinkStatus: status === null ? null : WALLET_LINK_STATUSES.includes(status as WalletLinkStatus) ? (status as WalletLinkStatus) : 'invalid',
  };
}

export function format(location: SubscribeLocation): string {
  const params = new URLSearchParams();
  if (location.plan) params.set('plan', location.plan);
  params.set('step', String(location.step));
  if (location.method) params.set('payment-method', location.method);
  if (location.walletLinkStatus && location.walletLinkStatus !== 'invalid') params.set('wallet-link-status', location.walletLinkStatus);
  return `${routes.subscribe}?${params.toString()}`;
}

export function sameLocation(a: SubscribeLocation, b: SubscribeLocation): boolean {
  return a.plan === b.plan && a.step === b.step && a.method === b.method && a.walletLinkStatus === b.walletLinkStatus;
}

/** Where Maya's wallet page sends the viewer back to: step 2 with the wallet chosen (without a status). */
export function walletReturnPath(plan: string): string {
  return format({ plan, step: 2, method: 'maya', walletLinkStatus: null });
}
