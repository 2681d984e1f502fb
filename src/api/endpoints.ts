/** One typed function per call of product.md#calls (paths the spec leaves open: see product.md#gaps). */
import * as z from 'zod/mini';
import { ApiError, type Http } from './http';
import * as s from './schemas';

export const V1 = '/api/v1/mobile';
const nothing = z.unknown();

export type SignInResult =
  | { success: true; message: string; data: s.AuthResult }
  | { success: false; message: string };

export type Api = ReturnType<typeof createApi>;

export function createApi(http: Http) {
  const { request, requestWithMessage, requestBlob } = http;
  return {
    /** product.md#envelope: the sign-in call returns the result object instead of throwing. */
    async signIn(body: s.SignInRequest, signal?: AbortSignal): Promise<SignInResult> {
      try {
        const { data, message } = await requestWithMessage(`${V1}/auth/sign-in-email`, {
          method: 'POST', body, auth: false, schema: s.authResultSchema, signal,
        });
        return { success: true, message, data };
      } catch (error) {
        if (error instanceof ApiError) return { success: false, message: error.message };
        throw error;
      }
    },
    signUp: (body: s.SignUpRequest, signal?: AbortSignal) =>
      request(`${V1}/auth/sign-up`, { method: 'POST', body, auth: false, schema: s.verificationTokenSchema, signal }),
    verifySignUp: (body: { verificationToken: string; otpCode: string }, signal?: AbortSignal) =>
      request(`${V1}/auth/sign-up/verify-otp`, { method: 'POST', body, auth: false, schema: s.authResultSchema, signal }),
    resendSignUpCode: (body: { verificationToken: string }, signal?: AbortSignal) =>
      request(`${V1}/auth/sign-up/resend-otp`, { method: 'POST', body, auth: false, schema: s.verificationTokenSchema, signal }),
    sendRecoveryCode: (body: { email: string }, signal?: AbortSignal) =>
      request(`${V1}/auth/forgot/send-otp`, { method: 'POST', body, auth: false, schema: s.verifyTokenSchema, signal }),
    verifyRecoveryCode: (body: { verifyToken: string; otpCode: string }, signal?: AbortSignal) =>
      request(`${V1}/auth/forgot/verify-otp`, { method: 'POST', body, auth: false, schema: s.resetTokenSchema, signal }),
    resetPassword: (body: { resetToken: string; password: string; confirmPassword: string }, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/auth/forgot/reset-password`, { method: 'POST', body, auth: false, schema: nothing, signal }),
    verifyAuthLink: (body: { token: string }, signal?: AbortSignal) =>
      request(`${V1}/auth/verify-auth-link`, { method: 'POST', body, auth: false, schema: s.authResultSchema, signal }),

    getProfile: (signal?: AbortSignal) => request(`${V1}/account/profile`, { schema: s.profileSchema, signal }),
    updateProfile: (body: s.ProfileUpdateWithTin, signal?: AbortSignal) =>
      request(`${V1}/account/profile`, { method: 'PUT', body, schema: s.profileSchema, signal }),
    changePassword: (body: s.PasswordChangeRequest, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/account/password`, { method: 'PUT', body, schema: nothing, signal }),
    uploadPhoto: (photo: Blob, signal?: AbortSignal) => {
      const form = new FormData();
      form.append('photo', photo);
      return request(`${V1}/account/photo`, { method: 'POST', form, schema: s.photoResultSchema, signal });
    },

    /** Ours (issue 36, product.md#devices): the account's signed-in devices, this one marked. */
    listDevices: (_input?: undefined, signal?: AbortSignal) =>
      request(`${V1}/account/sessions`, { schema: s.signedInDevicesSchema, signal }),
    signOutDevice: (body: { id: string }, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/account/sessions/${encodeURIComponent(body.id)}`, { method: 'DELETE', schema: nothing, signal }),
    signOutOtherDevices: (_input?: undefined, signal?: AbortSignal) =>
      request(`${V1}/account/sessions/sign-out-others`, { method: 'POST', schema: s.signedOutOthersSchema, signal }),
    /** Ours (issue 36, product.md#email-change): the password and the new address; a code goes to it. */
    startEmailChange: (body: s.EmailChangeRequest, signal?: AbortSignal) =>
      request(`${V1}/account/email/change`, { method: 'POST', body, schema: s.verificationTokenSchema, signal }),
    resendEmailChangeCode: (body: { verificationToken: string }, signal?: AbortSignal) =>
      request(`${V1}/account/email/change/resend`, { method: 'POST', body, schema: s.verificationTokenSchema, signal }),
    verifyEmailChange: (body: { verificationToken: string; otpCode: string }, signal?: AbortSignal) =>
      request(`${V1}/account/email/change/verify`, { method: 'POST', body, schema: s.emailChangedSchema, signal }),
    /** The "this wasn't me" link mailed to the old address: works signed out. */
    undoEmailChange: (body: { token: string }, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/auth/email/undo`, { method: 'POST', body, auth: false, schema: nothing, signal }),
    /** Issue 36 (product.md#data-export): the latest export's state; start one; a single-use link; the file, with that link. */
    getDataExport: (signal?: AbortSignal) => request(`${V1}/account/export`, { schema: s.dataExportStateSchema, signal }),
    startDataExport: (signal?: AbortSignal) => request(`${V1}/account/export`, { method: 'POST', schema: s.dataExportStateSchema, signal }),
    dataExportLink: (body: { format: s.DataExportFormat }, signal?: AbortSignal) =>
      request(`${V1}/account/export/link`, { method: 'POST', body, schema: s.dataExportLinkSchema, signal }),
    downloadDataExport: (input: { token: string }, signal?: AbortSignal) =>
      requestBlob(`${V1}/account/export/download?token=${encodeURIComponent(input.token)}`, { signal }),
    /** Issue 36 (product.md#erasure): the current password and the account's email typed again. */
    deleteAccount: (body: { password: string; confirmation: string }, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/account/delete`, { method: 'POST', body, schema: nothing, signal }),

    getSubscriptionStatus: (signal?: AbortSignal) =>
      request(`${V1}/subscription/status`, { schema: s.subscriptionStatusDetailsSchema, signal }),
    getSubscriptionHistory: (signal?: AbortSignal) =>
      request(`${V1}/subscription/history`, { schema: z.array(s.subscriptionHistoryItemSchema), signal }),
    getPlans: (signal?: AbortSignal) =>
      request(`${V1}/subscription/plans?type=PREMIUM&isActive=true`, { schema: z.array(s.planSchema), signal }),
    getPlan: (idOrSlug: number | string, signal?: AbortSignal) =>
      request(`${V1}/subscription/plans/${encodeURIComponent(String(idOrSlug))}`, { schema: s.planSchema, signal }),
    cancelSubscription: (body: { subscriptionId: string }, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/subscription/cancel`, { method: 'POST', body, schema: nothing, signal }),
    resubscribe: (body: z.input<typeof s.resubscribeRequestSchema>, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/subscription/resubscribe`, { method: 'POST', body, schema: nothing, signal }),
    updatePaymentMethod: (body: z.infer<typeof s.updatePaymentMethodRequestSchema>, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/subscription/update-payment-method`, { method: 'POST', body, schema: s.updatePaymentMethodResultSchema, signal }),
    updatePlan: (body: z.input<typeof s.updatePlanRequestSchema>, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/subscription/update-plan`, { method: 'POST', body, schema: s.planUpdateResultSchema, signal }),
    /** Ours (product.md#scheduled-downgrade): undoes a move down scheduled for the end of the paid period ("Keep Yearly"). */
    keepPlan: (body: z.infer<typeof s.subscriptionIdRequestSchema>, signal?: AbortSignal) =>
      requestWithMessage(`${V1}/subscription/update-plan/undo`, { method: 'POST', body, schema: nothing, signal }),
    /** Ours (product.md#plan-preview): the numbers of a plan change before it is confirmed. */
    previewPlanChange: (body: { planId: number }, signal?: AbortSignal) =>
      request(`${V1}/subscription/update-plan/preview?planId=${encodeURIComponent(String(body.planId))}`, { schema: s.planChangePreviewSchema, signal }),
    redeemVoucher: (body: { code: string }, signal?: AbortSignal) =>
      request(`${V1}/subscription-voucher/redeem`, { method: 'POST', body, schema: s.voucherSubscriptionSchema, signal }),

    /** Ours (product.md#payment-history): the viewer's payment records, newest first. */
    getPaymentHistory: (signal?: AbortSignal) =>
      request(`${V1}/payment/history`, { schema: z.array(s.paymentRecordSchema), signal }),
    getReceipt: (paymentId: string, signal?: AbortSignal) =>
      request(`${V1}/payment/receipts/${encodeURIComponent(paymentId)}`, { schema: s.receiptSchema, signal }),
    /** Ours (issue 34, product.md#invoices): the viewer's invoices and credit memos, newest first. */
    listInvoices: (signal?: AbortSignal) =>
      request(`${V1}/payment/invoices`, { schema: s.taxDocumentListSchema, signal }),
    getInvoice: (id: string, signal?: AbortSignal) =>
      request(`${V1}/payment/invoices/${encodeURIComponent(id)}`, { schema: s.taxDocumentSchema, signal }),
    /** The invoice of one payment (an old receipt link names the payment). */
    invoiceByPayment: (paymentId: string, signal?: AbortSignal) =>
      request(`${V1}/payment/invoices/by-payment/${encodeURIComponent(paymentId)}`, { schema: s.taxDocumentSchema, signal }),
    /**
     * The document as a PDF in `lang` (the English labels the BIR requires, the Bisaya beside them on a
     * Bisaya one). One input object, as every call (src/machines/actors.ts `Call`: input, then signal).
     */
    downloadInvoicePdf: (input: { id: string; lang: 'en' | 'ceb' }, signal?: AbortSignal) =>
      requestBlob(`${V1}/payment/invoices/${encodeURIComponent(input.id)}/pdf?lang=${input.lang}`, { signal }),

    createCheckout: (body: { planId: number }, signal?: AbortSignal) =>
      request(`${V1}/payment/checkout/create`, { method: 'POST', body, schema: s.checkoutResponseSchema, signal }),
    /**
     * Ours (product.md#checkout-renewal, #pay-now): pays a checkout subscription's next period on the hosted
     * checkout, or a PAST_DUE one's overdue period on its card or wallet (or the bank's page for a 3-D Secure card).
     */
    payRenewal: (body: { subscriptionId: string }, signal?: AbortSignal) =>
      request(`${V1}/payment/renewal/pay`, { method: 'POST', body, schema: s.renewResponseSchema, signal }),
    getWalletLink: (signal?: AbortSignal) =>
      request(`${V1}/payment/wallet/link`, { schema: z.nullable(s.walletLinkSchema), signal }),
    startWalletLink: (body: s.WalletLinkStartRequest, signal?: AbortSignal) =>
      request(`${V1}/payment/wallet/link`, { method: 'POST', body, schema: s.walletLinkStartResponseSchema, signal }),
    unlinkWallet: (signal?: AbortSignal) =>
      requestWithMessage(`${V1}/payment/wallet/link`, { method: 'DELETE', schema: nothing, signal }),
    payWithWallet: (body: z.input<typeof s.planWithLinkSchema>, signal?: AbortSignal) =>
      request(`${V1}/payment/wallet/create`, { method: 'POST', body, schema: nothing, signal }),
    saveCard: (body: s.NewCard, signal?: AbortSignal) =>
      request(`${V1}/payment/vault/cards`, { method: 'POST', body, schema: s.savedCardSchema, signal }),
    getDefaultCard: (signal?: AbortSignal) =>
      request(`${V1}/payment/vault/cards/default`, { schema: z.nullable(s.savedCardSchema), signal }),
    payWithCard: (body: z.input<typeof s.planWithCardTokenSchema>, signal?: AbortSignal) =>
      request(`${V1}/payment/vault/create`, { method: 'POST', body, schema: s.vaultPaymentResponseSchema, signal }),
  };
}

/** The base address and store links (product.md#app-config: `/app-config.json` on the SPA's own origin). */
export async function fetchAppConfig(fetchImpl: typeof fetch = fetch): Promise<s.AppConfig> {
  try {
    const response = await fetchImpl('/app-config.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error('not ok');
    return s.appConfigSchema.parse(await response.json());
  } catch {
    throw new ApiError('Failed to get base url');
  }
}
