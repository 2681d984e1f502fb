/**
 * The back office's contract (issue 35, /work/brief-ops-contract.md, docs/product.md#back-office): every
 * request and response body of `/api/v1/ops/*`, shared by the reference server (server/ops/) and the
 * console (src/views/ops, loaded only for operators). zod/mini, like src/api/schemas.ts.
 *
 * Amounts are decimal strings in pesos ("99.00"), as the payment records of the viewer's contract.
 * Dates are ISO 8601 instants, except the `YYYY-MM-DD` Manila dates of voucher expiry and the exports.
 * The server's answers are English texts the server translates from the catalogs (messages/*.json)
 * when it knows them (server/platform/translate.ts); the rules below name English messages.
 */
import * as z from 'zod/mini';

export const OPS = '/api/v1/ops';

/** Roles, lowest first: each includes everything of the ones before it. */
export const OPERATOR_ROLES = ['support', 'finance', 'admin'] as const;
export const operatorRoleSchema = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof operatorRoleSchema>;
/** What `POST /operators` and `npm run ops:grant` accept: a role, or `none` to remove it. */
export const grantRoleSchema = z.enum(['support', 'finance', 'admin', 'none']);
export type GrantRole = z.infer<typeof grantRoleSchema>;

export const roleRank = (role: OperatorRole): number => OPERATOR_ROLES.indexOf(role);
export const roleAtLeast = (role: OperatorRole, least: OperatorRole): boolean => roleRank(role) >= roleRank(least);

/** The server's words the console shows or matches (both sides, letter for letter). */
export const OPS_MESSAGES = {
  sessionExpired: 'Your operator session has expired. Please verify again.',
  wrongCode: 'That code is not right.',
  alreadyEnrolled: 'This operator has already set up an authenticator.',
  notEnrolled: 'Set up an authenticator first.',
  noPendingEnrolment: 'Start the authenticator set-up again.',
  reasonRequired: 'Please give a reason (3 to 500 characters).',
  refundWindow: "Maya refunds a payment only within 180 days. Refund it by hand from Maya's manager.",
  notReversible: 'This payment cannot be given back.',
  voidFullOnly: 'A payment is voided in full on the day it was made.',
  tooMuch: 'That is more than what is left to give back on this payment.',
  reversalInFlight: 'A reversal of this payment is already on its way.',
  requestKeyReused: 'This confirmation was already used for another action.',
  extendTooLong: 'Support can extend a period by at most 7 days.',
  nothingToExtend: 'This subscription has no period to extend.',
  notRenewable: 'This subscription has nothing to renew now.',
  alreadyEnded: 'This subscription has already ended.',
  mailGone: 'That mail is not in the log.',
  batchDisabled: 'This batch is disabled.',
  dateRange: 'Choose a range of at most 366 days, from before to.',
  expiryInPast: 'The expiry date must be in the future (Manila).',
  notAViewer: 'No account uses that email.',
  lastAdmin: 'The last admin cannot remove their own role.',
} as const;

/* ----------------------------------------------------------------- fields */

const CONTROL = /\p{Cc}|\p{Cs}/u;
const text = (min: number, max: number, message: string) =>
  z.string({ error: message }).check(
    z.refine((v: string) => !CONTROL.test(v.replace(/[\r\n\t]/g, ' ')), { error: message }),
    z.trim(),
    z.minLength(min, { error: message }),
    z.maxLength(max, { error: message }),
  );

/** Every action's reason: 3..500 characters (line breaks allowed), written to the audit log. */
export const reasonField = text(3, 500, OPS_MESSAGES.reasonRequired);
/** A TOTP code (6 digits) or a recovery code (`xxxx-xxxx`). */
export const codeField = z.string({ error: OPS_MESSAGES.wrongCode }).check(
  z.trim(),
  z.minLength(6, { error: OPS_MESSAGES.wrongCode }),
  z.maxLength(20, { error: OPS_MESSAGES.wrongCode }),
);
/** Pesos with at most two decimals, more than zero. */
export const amountField = z.string({ error: 'Enter an amount like 99.00.' }).check(
  z.regex(/^\d{1,8}(\.\d{1,2})?$/, { error: 'Enter an amount like 99.00.' }),
  z.refine((v: string) => Number(v) > 0, { error: 'Enter an amount like 99.00.' }),
);
export const manilaDateField = z.string({ error: 'Enter a date as YYYY-MM-DD.' }).check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Enter a date as YYYY-MM-DD.' }));
const uuidLike = z.string().check(z.regex(/^[0-9a-fA-F-]{8,64}$/, { error: 'Invalid request key.' }));
const amount = z.string();
const instant = z.string();

/* ----------------------------------------------------------------- identity */

export const operatorSchema = z.object({ email: z.string(), name: z.string(), role: operatorRoleSchema });
export type Operator = z.infer<typeof operatorSchema>;

/** `GET /me` (viewer's access token). */
export const opsMeSchema = z.object({ email: z.string(), name: z.string(), role: operatorRoleSchema, enrolled: z.boolean() });
export type OpsMe = z.infer<typeof opsMeSchema>;

/** `POST /enrol` (viewer's access token): the pending secret (base32) and its otpauth:// URL for the QR. */
export const enrolStartSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type EnrolStart = z.infer<typeof enrolStartSchema>;

export const opsSessionSchema = z.object({ opsToken: z.string(), expiresAt: instant, operator: operatorSchema });
export type OpsSession = z.infer<typeof opsSessionSchema>;

export const codeRequestSchema = z.object({ code: codeField });
export type CodeRequest = z.infer<typeof codeRequestSchema>;
/** `POST /enrol/confirm`: the recovery codes are shown once. */
export const enrolConfirmResultSchema = z.object({ recoveryCodes: z.array(z.string()), session: opsSessionSchema });
export type EnrolConfirmResult = z.infer<typeof enrolConfirmResultSchema>;
/** `POST /session`. */
export const sessionResultSchema = z.object({ session: opsSessionSchema });
export type SessionResult = z.infer<typeof sessionResultSchema>;

/* ----------------------------------------------------------------- audit */

/**
 * What an audit entry records (`action`). `cli` is the actor of `npm run ops:grant`.
 */
export const AUDIT_ACTIONS = [
  'operator.grant',
  'operator.sessions.revoke',
  'payment.reverse',
  'subscription.retry',
  'subscription.dunning',
  'subscription.extend',
  'subscription.cancel',
  'record.resolve',
  'mail.resend',
  'voucher_batch.create',
  'voucher_batch.disable',
  'voucher.disable',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntrySchema = z.object({
  id: z.string(),
  at: instant,
  actorUserId: z.nullable(z.string()),
  actorEmail: z.string(),
  /** support, finance, admin, or `cli`. */
  actorRole: z.string(),
  action: z.string(),
  targetUserId: z.nullable(z.string()),
  targetEmail: z.nullable(z.string()),
  /** payment_record, subscription, mail, voucher_batch, voucher, operator. */
  targetType: z.nullable(z.string()),
  targetId: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), nextCursor: z.nullable(z.string()) });
export type AuditPage = z.infer<typeof auditPageSchema>;
export interface AuditQuery {
  q?: string;
  action?: string;
  actor?: string;
  userId?: string;
  cursor?: string;
}

/* ----------------------------------------------------------------- find and timeline */

export const searchQuerySchema = z.object({ q: text(2, 200, 'Type at least 2 characters.') });
export const matchedBySchema = z.enum(['email', 'name', 'reference', 'mayaPaymentId', 'cardLast4', 'voucher']);
export const searchResultSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  matchedBy: matchedBySchema,
  /** The current subscription's status (ACTIVE, PAST_DUE, CANCELED, ...), or NONE. */
  status: z.string(),
});
export const searchResultsSchema = z.object({ results: z.array(searchResultSchema) });
export type SearchResult = z.infer<typeof searchResultSchema>;
export type SearchResults = z.infer<typeof searchResultsSchema>;

export const timelineSubscriptionSchema = z.object({
  id: z.string(),
  planName: z.string(),
  status: z.string(),
  paymentMethod: z.nullable(z.string()),
  startDate: instant,
  endDate: z.nullable(instant),
  canceledAt: z.nullable(instant),
  cancelReason: z.nullable(z.string()),
  dunningStopped: z.boolean(),
  retryCount: z.number(),
  nextRetryAt: z.nullable(instant),
});
export const attemptSchema = z.object({
  id: z.string(),
  /** CHECKOUT, CARD, WALLET, VOID, REFUND. */
  kind: z.string(),
  mayaId: z.nullable(z.string()),
  amount,
  /** OPEN, UNKNOWN, SUCCEEDED, DECLINED, EXPIRED, CANCELLED, OURS, NOT_MADE, REVERSED, FAILED. */
  outcome: z.string(),
  reason: z.nullable(z.string()),
  madeAt: instant,
  resolvedAt: z.nullable(instant),
  /** A void or refund: the charge attempt it gives back. */
  reverses: z.nullable(z.string()),
});
export const reversibleSchema = z.object({
  kind: z.enum(['void', 'refund', 'none']),
  /** What is left to give back ("0.00" when none). */
  maxAmount: amount,
  /** Why not (kind none), or what applies (e.g. the refund window's last day). */
  why: z.nullable(z.string()),
});
export const timelinePaymentSchema = z.object({
  id: z.string(),
  referenceNumber: z.string(),
  amount,
  currency: z.string(),
  status: z.string(),
  method: z.string(),
  createdAt: instant,
  invoice: z.nullable(z.object({ id: z.string(), number: z.string() })),
  reversible: reversibleSchema,
  attempts: z.array(attemptSchema),
});
export const timelineMailSchema = z.object({ id: z.string(), subject: z.string(), sentAt: instant });
export const timelineWebhookSchema = z.object({
  id: z.string(),
  receivedAt: instant,
  verified: z.boolean(),
  status: z.nullable(z.string()),
  paymentId: z.nullable(z.string()),
  why: z.nullable(z.string()),
});
export const timelineSessionSchema = z.object({ id: z.string(), createdAt: z.nullable(instant), revokedAt: z.nullable(instant) });
export const viewerTimelineSchema = z.object({
  viewer: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    language: z.string(),
    createdAt: instant,
    tin: z.nullable(z.string()),
  }),
  subscriptions: z.array(timelineSubscriptionSchema),
  payments: z.array(timelinePaymentSchema),
  mails: z.array(timelineMailSchema),
  webhooks: z.array(timelineWebhookSchema),
  sessions: z.array(timelineSessionSchema),
  audit: z.array(auditEntrySchema),
});
export type ViewerTimeline = z.infer<typeof viewerTimelineSchema>;
export type TimelinePayment = z.infer<typeof timelinePaymentSchema>;
export type TimelineSubscription = z.infer<typeof timelineSubscriptionSchema>;
export type GatewayAttempt = z.infer<typeof attemptSchema>;

/** `GET /attempts/:attemptId/maya`: what Maya says of the attempt now. */
export const mayaViewSchema = z.object({ status: z.string(), amount: z.nullable(amount), raw: z.unknown() });
export type MayaView = z.infer<typeof mayaViewSchema>;

/* ----------------------------------------------------------------- actions */

export const reverseRequestSchema = z.object({ amount: amountField, reason: reasonField, requestKey: uuidLike });
export type ReverseRequest = z.infer<typeof reverseRequestSchema>;
export const reverseResultSchema = z.object({
  kind: z.enum(['void', 'refund']),
  amount,
  /** SUCCEEDED, or UNKNOWN / OPEN while Maya's answer is awaited (the reconciler finishes it), FAILED. */
  outcome: z.string(),
});
export type ReverseResult = z.infer<typeof reverseResultSchema>;

export const reasonRequestSchema = z.object({ reason: reasonField });
export type ReasonRequest = z.infer<typeof reasonRequestSchema>;
export const dunningRequestSchema = z.object({ stopped: z.boolean(), reason: reasonField });
export type DunningRequest = z.infer<typeof dunningRequestSchema>;
export const extendRequestSchema = z.object({
  days: z.number({ error: 'Enter 1 to 366 days.' }).check(z.int({ error: 'Enter 1 to 366 days.' }), z.gte(1, { error: 'Enter 1 to 366 days.' }), z.lte(366, { error: 'Enter 1 to 366 days.' })),
  reason: reasonField,
});
export type ExtendRequest = z.infer<typeof extendRequestSchema>;
export const cancelRequestSchema = z.object({ when: z.enum(['now', 'period_end']), reason: reasonField });
export type CancelRequest = z.infer<typeof cancelRequestSchema>;

/** What a subscription action left: the subscription as the timeline shows it. */
export const subscriptionActionResultSchema = z.object({ subscription: timelineSubscriptionSchema });
export type SubscriptionActionResult = z.infer<typeof subscriptionActionResultSchema>;
/** `POST /subscriptions/:id/retry`: what the renewal did. */
export const retryResultSchema = z.object({
  /** CHARGED, DECLINED, PENDING (Maya's answer awaited), NOTHING_DUE, ALREADY_PAID, ... (renewals.ts words). */
  outcome: z.string(),
  subscription: timelineSubscriptionSchema,
});
export type RetryResult = z.infer<typeof retryResultSchema>;
export const extendResultSchema = z.object({ endDate: instant, subscription: timelineSubscriptionSchema });
export type ExtendResult = z.infer<typeof extendResultSchema>;
/** `POST /records/:recordId/resolve`: what the reconciler decided. */
export const resolveResultSchema = z.object({ decision: z.string(), status: z.string() });
export type ResolveResult = z.infer<typeof resolveResultSchema>;
export const resendResultSchema = z.object({ mailId: z.string(), to: z.string() });
export type ResendResult = z.infer<typeof resendResultSchema>;

/* ----------------------------------------------------------------- queues */

const queueBase = { userId: z.string(), email: z.string(), since: instant, ageMinutes: z.number() };
export const queuesSchema = z.object({
  pastDue: z.array(z.object({ ...queueBase, subscriptionId: z.string(), planName: z.string(), reason: z.nullable(z.string()), attempts: z.number(), nextTryAt: z.nullable(instant), dunningStopped: z.boolean() })),
  ourFault: z.array(z.object({ ...queueBase, subscriptionId: z.nullable(z.string()), recordId: z.string(), amount, reason: z.nullable(z.string()), attempts: z.number(), nextTryAt: z.nullable(instant) })),
  stuck: z.array(z.object({ ...queueBase, recordId: z.string(), attemptId: z.string(), kind: z.string(), outcome: z.string(), amount, reason: z.nullable(z.string()) })),
  reversals: z.array(z.object({ ...queueBase, recordId: z.string(), attemptId: z.string(), amount, state: z.enum(['due', 'failed']), reason: z.nullable(z.string()) })),
  unverifiedWebhooks: z.array(z.object({ userId: z.nullable(z.string()), email: z.nullable(z.string()), since: instant, ageMinutes: z.number(), id: z.string(), reason: z.nullable(z.string()), mayaPaymentId: z.nullable(z.string()), status: z.nullable(z.string()) })),
});
export type Queues = z.infer<typeof queuesSchema>;

/* ----------------------------------------------------------------- voucher campaigns */

export const voucherBatchRequestSchema = z.object({
  partner: text(1, 100, 'Name the partner (1 to 100 characters).'),
  count: z.number({ error: 'Enter 1 to 5000 codes.' }).check(z.int({ error: 'Enter 1 to 5000 codes.' }), z.gte(1, { error: 'Enter 1 to 5000 codes.' }), z.lte(5000, { error: 'Enter 1 to 5000 codes.' })),
  days: z.number({ error: 'Enter 1 to 366 days.' }).check(z.int({ error: 'Enter 1 to 366 days.' }), z.gte(1, { error: 'Enter 1 to 366 days.' }), z.lte(366, { error: 'Enter 1 to 366 days.' })),
  /** The PREMIUM plan whose terms the codes stand for. */
  planId: z.number().check(z.int(), z.positive()),
  /** The last Manila day a code can be redeemed. */
  expiresOn: manilaDateField,
  /** One code per account (a viewer redeems at most one code of this batch). */
  perAccount: z.boolean(),
  /** How many accounts can redeem one code (null: once). */
  useLimit: z.nullable(z.number().check(z.int(), z.gte(1), z.lte(100000))),
  reason: reasonField,
});
export type VoucherBatchRequest = z.infer<typeof voucherBatchRequestSchema>;
export const voucherBatchSchema = z.object({
  id: z.string(),
  partner: z.string(),
  planId: z.number(),
  planName: z.string(),
  days: z.number(),
  expiresOn: z.string(),
  perAccount: z.boolean(),
  useLimit: z.nullable(z.number()),
  count: z.number(),
  /** Redemptions so far. */
  used: z.number(),
  createdBy: z.string(),
  createdAt: instant,
  disabledAt: z.nullable(instant),
});
export type VoucherBatch = z.infer<typeof voucherBatchSchema>;
export const voucherBatchListSchema = z.object({ batches: z.array(voucherBatchSchema) });
export const voucherCodeSchema = z.object({ code: z.string(), disabledAt: z.nullable(instant), redemptions: z.number() });
export const redemptionSchema = z.object({ code: z.string(), userId: z.string(), email: z.string(), redeemedAt: instant });
export const voucherBatchDetailSchema = z.object({
  batch: voucherBatchSchema,
  codes: z.array(voucherCodeSchema),
  redemptions: z.array(redemptionSchema),
});
export type VoucherBatchDetail = z.infer<typeof voucherBatchDetailSchema>;
export const voucherDisableResultSchema = z.object({ code: z.string(), disabledAt: instant });

/* ----------------------------------------------------------------- exports */

export const EXPORT_KINDS = ['payments', 'refunds', 'redemptions'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const exportQuerySchema = z.object({ from: manilaDateField, to: manilaDateField });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/* ----------------------------------------------------------------- operators */

export const operatorRowSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: operatorRoleSchema,
  enrolled: z.boolean(),
  grantedBy: z.nullable(z.string()),
  grantedAt: instant,
  activeSessions: z.number(),
});
export type OperatorRow = z.infer<typeof operatorRowSchema>;
export const operatorListSchema = z.object({ operators: z.array(operatorRowSchema) });
export const grantRequestSchema = z.object({
  email: z.string().check(z.trim(), z.toLowerCase(), z.minLength(3), z.maxLength(254)),
  role: grantRoleSchema,
  reason: reasonField,
});
export type GrantRequest = z.infer<typeof grantRequestSchema>;
/** `POST /operators`: the operator as they are now (role null: removed). */
export const grantResultSchema = z.object({ userId: z.string(), email: z.string(), role: z.nullable(operatorRoleSchema) });
export type GrantResult = z.infer<typeof grantResultSchema>;
export const revokeResultSchema = z.object({ revoked: z.number() });
