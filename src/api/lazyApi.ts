/**
 * The API for code outside the lazy pages: the endpoints module (and zod with it) loads on first
 * call, so the landing page does not carry the contract it never calls. A plain object of named
 * async functions (no Proxy: `await api` settles, unknown names are compile errors). Pages use
 * `useApi()` (src/views/useApi.ts), which imports the endpoints directly inside the lazy chunks.
 */
import type { Api } from './endpoints';
import type { Http } from './http';

/** Every call of the API; a call missing here fails to compile (see `complete` below). */
const CALLS = [
  'signIn', 'signUp', 'verifySignUp', 'resendSignUpCode', 'sendRecoveryCode', 'verifyRecoveryCode', 'resetPassword',
  'verifyAuthLink', 'getProfile', 'updateProfile', 'changePassword', 'uploadPhoto', 'getSubscriptionStatus',
  'getSubscriptionHistory', 'getPlans', 'getPlan', 'cancelSubscription', 'resubscribe', 'updatePaymentMethod', 'updatePlan',
  'previewPlanChange', 'redeemVoucher', 'getPaymentHistory', 'createCheckout', 'getWalletLink', 'startWalletLink', 'unlinkWallet', 'payWithWallet',
  'saveCard', 'getDefaultCard', 'payWithCard',
] as const satisfies ReadonlyArray<keyof Api>;
const complete: [Exclude<keyof Api, (typeof CALLS)[number]>] extends [never] ? true : false = true;
void complete;

export function createLazyApi(http: Http): Api {
  let loaded: Promise<Api> | undefined;
  const load = () => (loaded ??= import('./endpoints').then(({ createApi }) => createApi(http)));
  const entries = CALLS.map((name) => [
    name,
    async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args),
  ]);
  return Object.fromEntries(entries) as Api;
}
