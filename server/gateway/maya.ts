/**
 * The Maya gateway: Maya's own paths and request/response shapes behind the `Gateway` interface the
 * routes use. One HTTP client for both targets: Maya (MAYA_BASE_URL, e.g. https://pg-sandbox.paymaya.com)
 * and, by default, the local sandbox this server serves under /sandbox/maya with the same paths.
 *
 * Basic auth as Maya documents it: `Basic base64("<key>:")`, the public key for payment tokens,
 * checkouts and wallet-link creation, the secret key for everything else.
 *
 * Card numbers pass through `createPaymentToken` only; nothing here logs a request body, and a
 * gateway error carries Maya's code and message, never what was sent.
 */
import * as z from 'zod/mini';
import { log } from '../platform/log';
import { gatewayCalls, gatewayDuration } from '../platform/metrics';

/* ----------------------------------------------------------------- money */

const DECIMAL = /^(0|[1-9]\d{0,9})(\.\d{1,2})?$/;

/** '99.00' → 9900 cents; a decimal string with at most two decimals, else an error. */
export function toCents(decimal: string): number {
  if (!DECIMAL.test(decimal)) throw new Error(`Not an amount: ${decimal}`);
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 9900 → '99.00'. */
export const formatCents = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Our decimal string to Maya's amount value: '99.00' → 99, '99.50' → 99.5. */
export const toMayaValue = (decimal: string): number => toCents(decimal) / 100;

/** Maya's amount (a number, or a numeric string in payment objects) back to ours: 99 → '99.00'. */
export function fromMayaValue(value: number | string): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`Not an amount: ${String(value)}`);
  return formatCents(Math.round(n * 100));
}

/* ----------------------------------------------------------------- shapes */

export const redirectUrlSchema = z.object({ success: z.string(), failure: z.string(), cancel: z.string() });
export type RedirectUrls = z.infer<typeof redirectUrlSchema>;

const contactSchema = z.object({ phone: z.nullish(z.string()), email: z.nullish(z.string()) });

export interface CheckoutRequest {
  totalAmount: { value: number; currency: string };
  buyer: { firstName: string; lastName: string; contact: { email: string } };
  items: Array<{ name: string; quantity: number; code: string; description: string; amount: { value: number }; totalAmount: { value: number } }>;
  redirectUrl: RedirectUrls;
  requestReferenceNumber: string;
  metadata?: Record<string, unknown>;
}
export const checkoutCreatedSchema = z.object({ checkoutId: z.string(), redirectUrl: z.string() });
export type CheckoutCreated = z.infer<typeof checkoutCreatedSchema>;

/** A checkout as `GET /checkout/v1/checkouts/{id}` answers it; its outcome is `paymentStatus`. */
export const checkoutSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  paymentStatus: z.string(),
  totalAmount: z.looseObject({ value: z.optional(z.union([z.number(), z.string()])), amount: z.optional(z.union([z.number(), z.string()])), currency: z.string() }),
  requestReferenceNumber: z.string(),
  /** Maya's payment id once the buyer has paid (in `paymentDetails` or at the top, by version). */
  paymentId: z.nullish(z.string()),
  expiredAt: z.nullish(z.string()),
  updatedAt: z.nullish(z.string()),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export interface CardDetails {
  number: string;
  expMonth: string;
  expYear: string;
  cvc: string;
}
export const paymentTokenSchema = z.object({
  paymentTokenId: z.string(),
  state: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  issuer: z.optional(z.string()),
});
export type PaymentToken = z.infer<typeof paymentTokenSchema>;

export interface CustomerRequest {
  firstName: string;
  middleName?: string;
  lastName: string;
  contact: { phone?: string; email: string };
  customerSince?: string;
}
export const customerSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), contact: contactSchema });
export type Customer = z.infer<typeof customerSchema>;

export const customerCardSchema = z.looseObject({
  cardTokenId: z.string(),
  cardType: z.string(),
  maskedPan: z.string(),
  state: z.string(),
  default: z.boolean(),
  /** Where the customer confirms the card with the bank (3-D Secure at save time); the card is usable once VERIFIED. */
  verificationUrl: z.nullish(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerCard = z.infer<typeof customerCardSchema>;
/** Maya's state of a vaulted card that can be charged. */
export const VERIFIED_CARD = 'VERIFIED';

/** A payment as Maya reports it (vault, checkout and wallet payments). */
export const paymentSchema = z.looseObject({
  id: z.string(),
  isPaid: z.boolean(),
  status: z.string(),
  amount: z.union([z.number(), z.string()]),
  currency: z.string(),
  requestReferenceNumber: z.string(),
  verificationUrl: z.nullish(z.string()),
  canVoid: z.optional(z.boolean()),
  canRefund: z.optional(z.boolean()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MayaPayment = z.infer<typeof paymentSchema>;

/** A void (`POST /payments/v1/payments/{id}/voids`) or a refund (`.../refunds`) as answered; Maya documents little of it. */
export const reversalSchema = z.looseObject({ status: z.optional(z.string()), message: z.optional(z.string()) });
export type Reversal = z.infer<typeof reversalSchema>;

/** A webhook registration (`/checkout/v1/webhooks`). */
export const webhookSchema = z.looseObject({ id: z.string(), name: z.string(), callbackUrl: z.string() });
export type Webhook = z.infer<typeof webhookSchema>;

export const walletLinkCreatedSchema = z.object({ linkId: z.string(), redirectUrl: z.string() });
/**
 * `GET /payby/v2/paymaya/link/{linkId}`. Maya's answer is not documented to carry the link id (Maya's
 * own demo adds it from the request), nor a state: a link is authorized once it has a customer.
 */
export const walletLinkSchema = z.looseObject({
  linkId: z.optional(z.string()),
  profileId: z.optional(z.string()),
  card: z.optional(z.looseObject({ state: z.string() })),
  customer: z.optional(z.object({
    firstName: z.string(),
    middleName: z.nullish(z.string()),
    lastName: z.string(),
    birthday: z.nullish(z.string()),
    sex: z.nullish(z.string()),
    contact: contactSchema,
  })),
});
export type MayaWalletLink = z.infer<typeof walletLinkSchema> & { linkId: string };

/**
 * Maya's documented payment statuses that end an attempt (developers.maya.ph "Payment statuses"; a
 * Maya moderator lists the final ones). Anything else (PENDING_TOKEN, PENDING_PAYMENT,
 * FOR_AUTHENTICATION, AUTHENTICATING, AUTH_SUCCESS, PAYMENT_PROCESSING, AUTHORIZED) is still on its way.
 */
export const FINAL_STATUSES = [
  'PAYMENT_SUCCESS', 'CAPTURED', 'PAYMENT_FAILED', 'AUTH_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED', 'VOIDED', 'REFUNDED',
  'CAPTURE_HOLD_EXPIRED', 'AUTHORIZATION_HOLD_EXPIRED',
] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];
export const isFinalStatus = (status: string): status is FinalStatus => (FINAL_STATUSES as readonly string[]).includes(status);

/** What a final Maya status means for our payment record: paid, or which way it ended unpaid. */
export function recordStatusOf(status: FinalStatus): 'PAYMENT_SUCCESS' | 'PAYMENT_FAILED' | 'PAYMENT_EXPIRED' | 'PAYMENT_CANCELLED' | 'VOIDED' | 'REFUNDED' {
  switch (status) {
    case 'PAYMENT_SUCCESS':
    case 'CAPTURED':
      return 'PAYMENT_SUCCESS';
    case 'PAYMENT_EXPIRED':
    case 'CAPTURE_HOLD_EXPIRED':
    case 'AUTHORIZATION_HOLD_EXPIRED':
      return 'PAYMENT_EXPIRED';
    case 'PAYMENT_CANCELLED':
      return 'PAYMENT_CANCELLED';
    case 'VOIDED':
    case 'REFUNDED':
      return status;
    default:
      return 'PAYMENT_FAILED';
  }
}

/** How long a hosted checkout can be paid: Maya's default expiry is one hour from creation. */
export const CHECKOUT_LIFETIME_MS = 60 * 60 * 1000;

/* ----------------------------------------------------------------- the interface */

export interface Gateway {
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  getCheckout(checkoutId: string): Promise<Checkout>;
  createPaymentToken(card: CardDetails): Promise<PaymentToken>;
  createCustomer(customer: CustomerRequest): Promise<Customer>;
  addCustomerCard(customerId: string, body: { paymentTokenId: string; isDefault: boolean; redirectUrl: RedirectUrls; requestReferenceNumber: string }): Promise<CustomerCard>;
  payWithCard(
    customerId: string,
    cardTokenId: string,
    body: { totalAmount: { amount: number; currency: string }; requestReferenceNumber: string; redirectUrl: RedirectUrls },
  ): Promise<MayaPayment>;
  listCustomerCards(customerId: string): Promise<CustomerCard[]>;
  /**
   * Maya's "Delete Card of Customer" (`DELETE /payments/v1/customers/{customerId}/cards/{cardTokenId}`,
   * secret key, beside its "Create Card of Customer" and the cards list): the vaulted card can never be
   * charged again. Used when an account is erased (issue 36). The answer's body is not read (Maya's
   * reference pages stored here do not show it); the stored reference did not include this call's own
   * page, so the path follows the vault's documented resource: `npm run maya:contract` against Maya's
   * sandbox (MAYA_BASE_URL) is the check, as for every call (docs/product.md#erasure).
   */
  deleteCustomerCard(customerId: string, cardTokenId: string): Promise<void>;
  getPayment(paymentId: string): Promise<MayaPayment>;
  /** Every payment with our reference number (attempts that failed and then succeeded share one). */
  getPaymentsByReference(requestReferenceNumber: string): Promise<MayaPayment[]>;
  voidPayment(paymentId: string, body: { reason: string }): Promise<Reversal>;
  refundPayment(paymentId: string, body: { totalAmount: { amount: number; currency: string }; reason: string }): Promise<Reversal>;
  createWalletLink(body: { redirectUrl: RedirectUrls; requestReferenceNumber: string }): Promise<{ linkId: string; redirectUrl: string }>;
  getWalletLink(linkId: string): Promise<MayaWalletLink>;
  deleteWalletLink(linkId: string): Promise<void>;
  payWithWalletLink(linkId: string, body: { totalAmount: { value: number; currency: string }; requestReferenceNumber: string }): Promise<MayaPayment>;
  listWebhooks(): Promise<Webhook[]>;
  createWebhook(body: { name: string; callbackUrl: string }): Promise<Webhook>;
  updateWebhook(id: string, body: { name: string; callbackUrl: string }): Promise<Webhook>;
  deleteWebhook(id: string): Promise<void>;
}

/** A non-2xx answer or an unreadable one; `status` 0 when the gateway could not be reached. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export interface MayaClientOptions {
  /** Without a trailing slash, e.g. https://pg-sandbox.paymaya.com or http://127.0.0.1:8080/sandbox/maya. */
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  fetch?: typeof fetch;
  /** Milliseconds before a call is abandoned. */
  timeoutMs?: number;
}

export const basicAuth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

const mayaErrorSchema = z.looseObject({ code: z.optional(z.string()), message: z.optional(z.string()) });

export function createMayaClient(options: MayaClientOptions): Gateway {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  /**
   * One call, with one log line (kind, method, HTTP status, outcome, duration; never the body, the
   * path's ids or the keys; the request's or job's id from the log context) and its metrics.
   */
  async function call<T>(kind: keyof Gateway, method: string, path: string, key: 'public' | 'secret', schema: z.ZodMiniType<T> | null, body?: unknown): Promise<T> {
    const started = performance.now();
    let status = 0;
    let outcome = 'unreachable';
    try {
      const answer = await callOnce(method, path, key, schema, body, (s) => (status = s));
      outcome = 'ok';
      return answer;
    } catch (error) {
      if (error instanceof GatewayError) outcome = error.status === 0 ? 'unreachable' : error.code === 'BAD_RESPONSE' ? 'bad_response' : error.status >= 500 ? 'failed' : 'rejected';
      else outcome = 'error';
      throw error;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      gatewayCalls.inc({ kind, outcome });
      gatewayDuration.observe({ kind }, seconds);
      log().info({ gateway: kind, method, status, outcome, ms: Math.round(seconds * 10_000) / 10 }, 'gateway call');
    }
  }

  async function callOnce<T>(method: string, path: string, key: 'public' | 'secret', schema: z.ZodMiniType<T> | null, body: unknown, answered: (status: number) => void): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: basicAuth(key === 'public' ? options.publicKey : options.secretKey),
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new GatewayError(0, 'UNREACHABLE', `The payment gateway could not be reached (${method} ${path.split('/').slice(0, 4).join('/')}).`);
    }
    answered(response.status);
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      const error = mayaErrorSchema.safeParse(json);
      throw new GatewayError(response.status, (error.success && error.data.code) || `HTTP_${response.status}`, (error.success && error.data.message) || `Gateway answered ${response.status}`);
    }
    if (schema === null) return undefined as T;
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new GatewayError(response.status, 'BAD_RESPONSE', `Unexpected gateway answer to ${method} ${path.split('/').slice(0, 4).join('/')}`);
    return parsed.data;
  }

  const id = (value: string) => encodeURIComponent(value);
  return {
    createCheckout: (request) => call('createCheckout', 'POST', '/checkout/v1/checkouts', 'public', checkoutCreatedSchema, request),
    getCheckout: (checkoutId) => call('getCheckout', 'GET', `/checkout/v1/checkouts/${id(checkoutId)}`, 'secret', checkoutSchema),
    createPaymentToken: (card) => call('createPaymentToken', 'POST', '/payments/v1/payment-tokens', 'public', paymentTokenSchema, { card }),
    createCustomer: (customer) => call('createCustomer', 'POST', '/payments/v1/customers', 'secret', customerSchema, customer),
    addCustomerCard: (customerId, body) => call('addCustomerCard', 'POST', `/payments/v1/customers/${id(customerId)}/cards`, 'secret', customerCardSchema, body),
    payWithCard: (customerId, cardTokenId, body) =>
      call('payWithCard', 'POST', `/payments/v1/customers/${id(customerId)}/cards/${id(cardTokenId)}/payments`, 'secret', paymentSchema, body),
    listCustomerCards: (customerId) => call('listCustomerCards', 'GET', `/payments/v1/customers/${id(customerId)}/cards`, 'secret', z.array(customerCardSchema)),
    deleteCustomerCard: (customerId, cardTokenId) =>
      call('deleteCustomerCard', 'DELETE', `/payments/v1/customers/${id(customerId)}/cards/${id(cardTokenId)}`, 'secret', null),
    getPayment: (paymentId) => call('getPayment', 'GET', `/payments/v1/payments/${id(paymentId)}`, 'secret', paymentSchema),
    getPaymentsByReference: (rrn) => call('getPaymentsByReference', 'GET', `/payments/v1/payment-rrns/${id(rrn)}`, 'secret', z.array(paymentSchema)),
    voidPayment: (paymentId, body) => call('voidPayment', 'POST', `/payments/v1/payments/${id(paymentId)}/voids`, 'secret', reversalSchema, body),
    refundPayment: (paymentId, body) => call('refundPayment', 'POST', `/payments/v1/payments/${id(paymentId)}/refunds`, 'secret', reversalSchema, body),
    createWalletLink: (body) => call('createWalletLink', 'POST', '/payby/v2/paymaya/link', 'public', walletLinkCreatedSchema, body),
    // Maya's demo adds the link id to the answer itself: the answer is not documented to carry it.
    getWalletLink: async (linkId) => ({ ...(await call('getWalletLink', 'GET', `/payby/v2/paymaya/link/${id(linkId)}`, 'secret', walletLinkSchema)), linkId }),
    deleteWalletLink: (linkId) => call('deleteWalletLink', 'DELETE', `/payby/v2/paymaya/link/${id(linkId)}`, 'secret', null),
    payWithWalletLink: (linkId, body) => call('payWithWalletLink', 'POST', `/payby/v2/paymaya/link/${id(linkId)}/execute`, 'secret', paymentSchema, body),
    listWebhooks: () => call('listWebhooks', 'GET', '/checkout/v1/webhooks', 'secret', z.array(webhookSchema)),
    createWebhook: (body) => call('createWebhook', 'POST', '/checkout/v1/webhooks', 'secret', webhookSchema, body),
    updateWebhook: (webhookId, body) => call('updateWebhook', 'PUT', `/checkout/v1/webhooks/${id(webhookId)}`, 'secret', webhookSchema, body),
    deleteWebhook: (webhookId) => call('deleteWebhook', 'DELETE', `/checkout/v1/webhooks/${id(webhookId)}`, 'secret', null),
  };
}
