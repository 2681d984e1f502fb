/** The route table of product.md#routes (plus the sign-up code screen of product.md#sign-up-code). */
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
  /** Ours (issue 19): one successful payment's receipt. */
  receipt: '/subscription/receipts/:id',
  /** Ours (issue 34): one invoice or credit memo (product.md#invoices); the receipt page leads here. */
  invoice: '/subscription/invoices/:id',
  /** Ours (issue 36): the "this wasn't me" link mailed to the old address after an email change. */
  emailUndo: '/account/email/undo',
} as const;

/** The address of a payment's receipt page. */
export const receiptPath = (paymentId: string) => routes.receipt.replace(':id', encodeURIComponent(paymentId));

/**
 * A `from` value is only followed when it is a path on this site (no open redirect). Browsers strip
 * tabs and line breaks from addresses and read a backslash as `/`, so "/\t/evil.example" would become
 * "//evil.example": any whitespace, control character or backslash makes the value unsafe, and what is
 * left must still resolve to this origin.
 */
export function safeRedirectPath(from: string | null | undefined, fallback: string = routes.home): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || /[\s\p{Cc}\\]/u.test(from)) return fallback;
  const base = 'http://this.site.invalid';
  try {
    if (new URL(from, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return from;
}

export function loginPathFor(path: string): string {
  return `${routes.login}?from=${encodeURIComponent(path)}`;
}
