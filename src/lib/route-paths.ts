/** The route table of spec §2 (plus the sign-up code screen of the design). */
export const routes = {
  home: '/',
  terms: '/legal/terms',
  privacy: '/legal/privacy',
  login: '/login',
  register: '/register',
  registerVerify: '/register/verify',
  forgotPassword: '/forgot-password',
  forgotPasswordVerify: '/forgot-password/verify',
  forgotPasswordReset: '/forgot-password/reset',
  authLink: '/auth',
  payment: '/payment',
  account: '/account',
  subscription: '/subscription',
  subscribe: '/subscription/payment',
  changePaymentMethod: '/subscription/change-payment-method',
  changePlan: '/subscription/change-plan',
  redeemVoucher: '/subscription/redeem-voucher',
} as const;

/** A `from` value is only followed when it is a path on this site (no open redirect). */
export function safeRedirectPath(from: string | null | undefined, fallback: string = routes.home): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return fallback;
  return from;
}

export function loginPathFor(path: string): string {
  return `${routes.login}?from=${encodeURIComponent(path)}`;
}
