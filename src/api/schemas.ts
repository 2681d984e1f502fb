/**
 * The contract between the app and the API (product.md#entities and product.md#api), shared by the client and the
 * reference server so that both sides validate the same shapes with the same messages.
 *
 * Written with zod/mini (the same zod, its tree-shakable functional API: issue 10's route budgets):
 * `z.string().check(z.minLength(1, message))` is classic zod's `z.string().min(1, message)`, with the
 * same checks run in the same order. zod/mini has no default locale, so every rule a form shows
 * names its message; the server loads zod's English messages for the rest (server/platform/http.ts).
 */
import * as z from 'zod/mini';
import { m } from '../i18n';
import { isCommonPassword } from './commonPasswords';

/**
 * A message of the contract (issue 20): a catalog message, called when a value is checked, so it speaks
 * the language in use at that moment (the viewer's in the app, the request's on the server), never the
 * one of the moment this module loaded. `messages.emailRequired()` reads one.
 */
export type Message = () => string;

/** zod's parameter for a message read at parse time. */
const lazy = (message: Message) => ({ error: () => message() });

export const messages = {
  emailRequired: m.email_is_required,
  emailInvalid: m.please_enter_a_valid_email_address,
  passwordRequired: m.password_is_required,
  passwordConfirmRequired: m.password_confirmation_is_required,
  passwordsMismatch: m.passwords_do_not_match,
  firstNameRequired: m.first_name_is_required,
  lastNameRequired: m.last_name_is_required,
  birthdateRequired: m.birthdate_is_required,
  birthdateInFuture: m.birthdate_cannot_be_in_the_future,
  birthdateTooEarly: m.birthdate_cannot_be_before_1900_01,
  verificationTokenRequired: m.verification_token_is_required,
  otpRequired: m.otp_code_is_required,
  otpInvalid: m.otp_code_must_be_6_letters_or_digits,
  resetTokenRequired: m.reset_token_is_required,
  tokenRequired: m.token_is_required,
  oldPasswordRequired: m.old_password_is_required,
  newPasswordRequired: m.new_password_is_required,
  newPasswordConfirmRequired: m.new_password_confirmation_is,
  newPasswordsMismatch: m.new_passwords_do_not_match,
  voucherRequired: m.voucher_code_is_required,
  textTooLong: m.this_field_is_too_long,
  controlCharacters: m.text_must_not_contain_control,
  redirectUrlTooLong: m.the_redirect_address_is_too_long,
  // product.md#password-rule: the password rule and the minimum age of the terms.
  passwordTooShort: m.password_must_be_at_least_8,
  passwordTooLong: m.password_must_be_at_most_128,
  passwordTooCommon: m.this_password_is_too_common,
  underMinimumAge: m.you_must_be_at_least_18_years_old,
  tinInvalid: m.enter_your_tin_as_000_000_000_00000,
} as const satisfies Record<string, Message>;

/* ----------------------------------------------------------------- field rules */

export const MAX_TEXT = 100;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;
export const MINIMUM_AGE = 18;
export const OTP_LENGTH = 6;
export const EARLIEST_BIRTHDATE = '1900-01-01';

/** One-time codes (product.md#security-codes): what both sides say about them. */
export const OTP_MESSAGES = {
  invalid: 'Invalid OTP code',
  expired: 'This code has expired. Please request a new one.',
  voided: 'Too many wrong attempts. Please request a new code.',
  unknownChallenge: 'This verification has expired. Please start again.',
  tooManySends: 'Too many codes requested for this email. Please try again in an hour.',
  waitBeforeResend: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
} as const;

/** Profile photos (product.md#security-uploads): checked in the app before upload and by the server after. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const PHOTO_MESSAGES = {
  missing: 'Please choose a photo to upload.',
  tooLarge: 'Photo must be 5 MB or smaller.',
  wrongType: 'Photo must be a JPEG, PNG or WebP image.',
} as const;

/**
 * Control characters (C0, DEL, C1: NUL, tab, line breaks, escapes) have no place in a name, a code or
 * a token; PostgreSQL refuses NUL outright. Every text field of the contract refuses them, and half a
 * surrogate pair (\ud800 alone: not text at all; PostgreSQL's jsonb refuses it, a fuzz test found it).
 */
const CONTROL_CHARACTER = /\p{Cc}|\p{Cs}/u;
const LONE_SURROGATE = /\p{Cs}/u;
export const hasControlCharacters = (value: string) => CONTROL_CHARACTER.test(value);

/** A string without control characters: checked before trimming, so a trailing tab is refused too. */
const noControlCharacters = (message: Message) => z.refine<string>((value) => !hasControlCharacters(value), lazy(message));

/** A string without control characters: checked before trimming, so a trailing tab is refused too. */
export const plainText = (message: Message) => z.string(lazy(message)).check(noControlCharacters(messages.controlCharacters));
/** A gateway's id (a card token, a link id): plain text of 1 to 200 characters. */
export const gatewayIdField = (name: string) => {
  const isRequired = () => m.is_required({ name });
  return plainText(isRequired).check(z.minLength(1, lazy(isRequired)), z.maxLength(200, lazy(messages.textTooLong)));
};

const required = (message: Message, max = MAX_TEXT) =>
  plainText(message).check(z.trim(), z.minLength(1, lazy(message)), z.maxLength(max, lazy(messages.textTooLong)));

export const emailField = z.pipe(
  z.string(lazy(messages.emailRequired)).check(
    noControlCharacters(messages.emailInvalid),
    z.trim(),
    z.minLength(1, lazy(messages.emailRequired)),
    z.maxLength(254, lazy(messages.emailInvalid)),
  ),
  z.email(lazy(messages.emailInvalid)),
);

/** Passwords are never trimmed: spaces are characters the user chose. */
export const passwordField = (message: Message) =>
  z.string(lazy(message)).check(z.minLength(1, lazy(message)), z.maxLength(MAX_PASSWORD, lazy(messages.textTooLong)));

/**
 * A password being chosen (sign-up, reset, change), product.md#password-rule: 8 to 128 characters, not a common one.
 * The common-password check applies once the list is loaded (always on the server; see ./commonPasswords).
 */
export const newPasswordField = (message: Message) =>
  z.string(lazy(message)).check(
    z.minLength(1, lazy(message)),
    z.minLength(MIN_PASSWORD, lazy(messages.passwordTooShort)),
    z.maxLength(MAX_PASSWORD, lazy(messages.passwordTooLong)),
    // Half a surrogate pair hashes as U+FFFD: several different passwords would be one.
    z.refine((value: string) => !LONE_SURROGATE.test(value), lazy(messages.controlCharacters)),
    z.refine((value: string) => !isCommonPassword(value), lazy(messages.passwordTooCommon)),
  );

export const otpField = z
  .string(lazy(messages.otpRequired))
  .check(z.trim(), z.minLength(1, lazy(messages.otpRequired)), z.regex(/^[A-Za-z0-9]{6}$/, lazy(messages.otpInvalid)));

/* ----------------------------------------------------------------- entities */

export const planTypeSchema = z.enum(['FREE', 'PREMIUM']);
export const billingCycleSchema = z.enum(['month', 'year', 'week', 'day', 'hour', 'minute', 'voucher']);
export const paymentMethodSchema = z.enum(['MAYA_VAULT', 'MAYA_WALLET', 'MAYA_CHECKOUT', 'VOUCHER']);
/** ACTIVE and CANCELED are named by the spec; anything else is shown as its raw text. */
export const subscriptionStatusSchema = z.string();

export const userSubscriptionSchema = z.object({
  planId: z.number(),
  planName: z.string(),
  planType: planTypeSchema,
  status: subscriptionStatusSchema,
  startDate: z.string(),
  endDate: z.nullable(z.string()),
});

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  middleName: z.nullish(z.string()),
  lastName: z.string(),
  phoneNumber: z.nullish(z.string()),
  gender: z.nullish(z.string()),
  birthdate: z.nullish(z.string()),
  photo: z.nullish(z.string()),
  withPassword: z.boolean(),
  subscription: z.nullable(userSubscriptionSchema),
});

export const authResultSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: userSchema,
});

export const verificationTokenSchema = z.object({ verificationToken: z.string() });
export const verifyTokenSchema = z.object({ verifyToken: z.string() });
export const resetTokenSchema = z.object({ resetToken: z.string() });

export const planSchema = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.string(),
  currency: z.string(),
  duration: z.string(),
  billingCycle: billingCycleSchema,
  trialDays: z.number(),
  sortOrder: z.number(),
  isActive: z.boolean(),
  features: z.array(z.string()),
  popular: z.boolean(),
});

/** A renewal that failed: why, when it is tried again (null: not again automatically), when access ends unpaid. */
export const renewalPastDueSchema = z.object({
  state: z.literal('PAST_DUE'),
  failure: z.string(),
  nextAttemptDate: z.nullable(z.string()),
  accessEndDate: z.string(),
});

/** A checkout subscription whose end is near: the viewer renews it by hand ("Renew now"). */
export const renewalDueSchema = z.object({ state: z.literal('DUE'), dueDate: z.string() });

/** The plan a scheduled move down goes to, and when (the end of the paid period). */
export const scheduledChangeSchema = z.object({
  planName: z.string(),
  planAmount: z.string(),
  date: z.string(),
});

export const subscriptionStatusDetailsSchema = z.object({
  planId: z.number(),
  planName: z.string(),
  planType: planTypeSchema,
  status: subscriptionStatusSchema,
  startDate: z.string(),
  endDate: z.nullable(z.string()),
  planCurrency: z.string(),
  planAmount: z.string(),
  planDuration: z.union([z.string(), z.number()]),
  planBillingCycle: billingCycleSchema,
  subscriptionId: z.nullable(z.string()),
  paymentMethod: z.nullable(paymentMethodSchema),
  paymentMethodDetails: z.nullable(
    z.object({
      description: z.optional(z.string()),
      maskedCardNumber: z.optional(z.string()),
      voucherCode: z.optional(z.string()),
    }),
  ),
  isVoucherSubscription: z.optional(z.boolean()),
  voucherCode: z.optional(z.string()),
  voucherAmount: z.optional(z.string()),
  subscriptionDays: z.optional(z.number()),
  originalVoucherTerms: z.optional(z.object({ cycle: z.string(), price: z.string(), duration: z.union([z.string(), z.number()]) })),
  /**
   * What the viewer needs to know about paying the next period (product.md#dunning,
   * product.md#checkout-renewal); absent when nothing is due. Ours: the spec shows no such field.
   */
  renewal: z.optional(z.union([renewalPastDueSchema, renewalDueSchema])),
  /**
   * A move down that takes effect at the end of the paid period (product.md#scheduled-downgrade): the
   * plan the next period is on, its price, and the date it starts; undoable until then. Ours.
   */
  scheduledChange: z.optional(scheduledChangeSchema),
  /** Ours (product.md#renew-early): the next period, already paid (Renew now before the end), starts then; startDate is the running period's. */
  nextPeriodStart: z.optional(z.string()),
  /** Ours (product.md#ended-unpaid), on a FREE answer: the last Premium ended then because its renewal was never paid. */
  premiumEnded: z.optional(z.object({ reason: z.literal('PAYMENT_FAILED'), date: z.string() })),
  /**
   * Ours (product.md#card-expiry): the saved card this subscription renews on expires before its next
   * billing date, said from 30 days before that date ('Update card'); absent or null otherwise.
   */
  cardExpiresBeforeRenewal: z.nullish(z.object({ cardType: z.string(), last4: z.string(), expiry: z.string(), billingDate: z.string() })),
});

export const subscriptionHistoryItemSchema = z.object({
  id: z.string(),
  plan: z.string(),
  planType: planTypeSchema,
  currency: z.string(),
  price: z.string(),
  status: subscriptionStatusSchema,
  startDate: z.string(),
  endDate: z.nullable(z.string()),
  autoRenew: z.boolean(),
});

/** Gateway outcomes of a payment (Maya's names), plus PENDING while it waits. */
export const paymentStatusSchema = z.string();

export const paymentRecordSchema = z.object({
  id: z.string(),
  userId: z.string(),
  subscriptionId: z.nullable(z.string()),
  checkoutId: z.nullable(z.string()),
  referenceId: z.string(),
  /** PENDING, PAYMENT_SUCCESS, PAYMENT_FAILED, PAYMENT_EXPIRED, PAYMENT_CANCELLED; others shown raw. */
  status: paymentStatusSchema,
  amount: z.string(),
  discountedAmount: z.string(),
  totalAmount: z.string(),
  paymentMethod: paymentMethodSchema,
  paymentLink: z.nullable(z.string()),
  gatewayResponse: z.unknown(),
  retryCount: z.number(),
  lastRetryDate: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Ours, beyond product.md#entities: the plan paid for, for the payments panel. */
  planName: z.nullable(z.string()),
  /** Ours (issue 34, product.md#invoices): the invoice of a successful payment, for the payments panel's link; null without one. */
  invoiceId: z.optional(z.nullable(z.string())),
});

/**
 * Ours, beyond product.md: the receipt of one successful payment (issue 19), for its page and its
 * printable version. `periodStart`/`periodEnd`: the subscription period the payment paid for.
 */
export const receiptSchema = z.object({
  id: z.string(),
  merchant: z.string(),
  merchantUrl: z.string(),
  referenceId: z.string(),
  paidAt: z.string(),
  planName: z.string(),
  periodStart: z.nullable(z.string()),
  periodEnd: z.nullable(z.string()),
  amount: z.string(),
  currency: z.string(),
  paymentMethod: paymentMethodSchema,
  /** A card payment's card ('Visa', '1381'); null when the card is no longer saved or the method is not a card (review finding 19). */
  card: z.optional(z.nullable(z.object({ type: z.string(), last4: z.string() }))),
  /** It paid a subscription's next period (Renew now, an automatic renewal), not a purchase or a plan change. */
  renewal: z.optional(z.boolean()),
  customerName: z.string(),
  customerEmail: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * Ours (issue 34, product.md#invoices): a sales invoice (every successful payment) or a credit memo (its
 * void or refund, naming the invoice). Amounts are VAT-inclusive totals split into VATable sales and VAT
 * (src/lib/vat.ts), positive on both kinds: a memo's are what it takes back. `description` and
 * `planName` are in the request's language; `seller.sample`: the seller is the embedded sample, not a
 * registered one (the page and PDF say SAMPLE). `issuedAt`: an invoice's date paid, a memo's reversal time.
 */
export const taxDocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(['INVOICE', 'CREDIT_MEMO']),
  number: z.string(),
  issuedAt: z.string(),
  paymentId: z.string(),
  invoiceId: z.nullable(z.string()),
  invoiceNumber: z.nullable(z.string()),
  seller: z.object({ name: z.string(), tin: z.string(), address: z.string(), sample: z.boolean() }),
  buyer: z.object({ name: z.string(), email: z.string(), tin: z.nullable(z.string()) }),
  /** The plan's name in the buyer's language and what it was (purchase, renewal, plan change). */
  description: z.string(),
  planName: z.string(),
  periodStart: z.nullable(z.string()),
  periodEnd: z.nullable(z.string()),
  vatableSales: z.string(),
  vat: z.string(),
  /** '0.12'. */
  vatRate: z.string(),
  total: z.string(),
  currency: z.string(),
  paymentMethod: paymentMethodSchema,
  card: z.nullable(z.object({ type: z.string(), last4: z.string() })),
  referenceId: z.string(),
  mayaPaymentId: z.nullable(z.string()),
});
export type TaxDocument = z.infer<typeof taxDocumentSchema>;
export const taxDocumentListSchema = z.object({ items: z.array(taxDocumentSchema) });

export const savedCardSchema = z.object({
  createdAt: z.string(),
  updatedAt: z.string(),
  cardTokenId: z.string(),
  cardType: z.string(),
  first6: z.string(),
  last4: z.string(),
  maskedPan: z.string(),
  walletType: z.string(),
  state: z.string(),
  default: z.boolean(),
  /** Just saved: where the viewer confirms the card with the bank (Maya's 3-D Secure at save time); the card is usable once VERIFIED. */
  verificationUrl: z.optional(z.nullable(z.string())),
});

/** A path of this app to come back to (never another site): '/subscribe?plan=monthly&step=3'. */
export const appPathSchema = z.string().check(z.maxLength(512), z.regex(/^\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/, lazy(m.returnto_must_be_a_path_of_this_app)));

/** What a person reads when a card field is refused by the server (the form says the same before sending). */
export const CARD_FIELD_MESSAGES = {
  number: m.enter_the_card_number_12_to_19,
  expMonth: m.enter_the_expiry_month_as_two_digits,
  expYear: m.enter_the_expiry_year_as_four_digits,
  cvc: m.enter_the_3_or_4_digit_security_code,
  isDefault: m.choose_whether_this_card_is_your,
  returnTo: m.returnto_must_be_a_path_of_this_app,
} as const satisfies Record<string, Message>;

export const newCardSchema = z.object({
  number: z.string(lazy(CARD_FIELD_MESSAGES.number)).check(z.regex(/^[\d ]{12,23}$/, lazy(CARD_FIELD_MESSAGES.number))),
  // Two digits here; the month itself is the card rules' to judge ('Invalid month', lib/card.ts).
  expMonth: z.string(lazy(CARD_FIELD_MESSAGES.expMonth)).check(z.regex(/^\d{2}$/, lazy(CARD_FIELD_MESSAGES.expMonth))),
  expYear: z.string(lazy(CARD_FIELD_MESSAGES.expYear)).check(z.regex(/^\d{4}$/, lazy(CARD_FIELD_MESSAGES.expYear))),
  cvc: z.string(lazy(CARD_FIELD_MESSAGES.cvc)).check(z.regex(/^\d{3,4}$/, lazy(CARD_FIELD_MESSAGES.cvc))),
  isDefault: z._default(z.boolean(lazy(CARD_FIELD_MESSAGES.isDefault)), true),
  /** Where the viewer comes back to after confirming the card with the bank. */
  returnTo: z.optional(z.string(lazy(CARD_FIELD_MESSAGES.returnTo)).check(z.maxLength(512, lazy(CARD_FIELD_MESSAGES.returnTo)), z.regex(/^\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/, lazy(CARD_FIELD_MESSAGES.returnTo)))),
});

export const saveCardTokenSchema = z.object({ idToken: z.string(), isDefault: z.boolean() });

export const walletLinkSchema = z.object({
  linkId: z.string(),
  profileId: z.string(),
  card: z.object({ state: z.string() }),
  customer: z.object({
    firstName: z.string(),
    middleName: z.nullish(z.string()),
    lastName: z.string(),
    birthday: z.nullish(z.string()),
    sex: z.nullish(z.string()),
    contact: z.object({ phone: z.nullish(z.string()), email: z.nullish(z.string()) }),
  }),
});

/** An http(s) address with no control character (a NUL would reach the gateway), at most 2,000 characters. */
const returnAddress = plainText(m.each_return_address_must_be_an_http).check(
  z.maxLength(2000, lazy(messages.textTooLong)),
  z.url({ protocol: /^https?$/, ...lazy(m.each_return_address_must_be_an_http) }),
);
export const walletLinkStartRequestSchema = z.object({
  redirectUrl: z.object({ success: returnAddress, failure: returnAddress, cancel: returnAddress }),
});
export const walletLinkStartResponseSchema = z.object({ linkId: z.string(), redirectUrl: z.string() });

// Ids from the gateway: plain text (no control character), 1 to 200 characters (idField, below).
/* ----- renewal consent (issue 34, product.md#renewal-consent): ours, beside the spec's requests ----- */
/**
 * The viewer agreed to automatic renewal: the sentence the app showed (renewalConsentText) and its
 * language. Optional in every request (the spec's requests stay valid); the server refuses a payment
 * or change that renews on a card or wallet without it.
 */
// (The contract's own messages: this module is on the landing page's chain, whose budget has no room for new ones;
// the refusal itself, 'Please agree to automatic renewal to continue.', is the server's.)
// (Control characters need no rule of their own: the server accepts only the catalog's sentence.)
const consentRequired = lazy(m.this_field_is_required);
export const renewalConsentSchema = z.object({
  accepted: z.boolean(consentRequired),
  text: z.string(consentRequired).check(z.minLength(1, consentRequired), z.maxLength(600, consentRequired)),
  language: z.enum(['en', 'ceb'], consentRequired),
});
export type RenewalConsent = z.infer<typeof renewalConsentSchema>;
const renewalConsentField = z.optional(renewalConsentSchema);
/* ----- end renewal consent ----- */
export const planWithCardTokenSchema = z.object({ planId: z.number(), cardToken: gatewayIdField('cardToken'), renewalConsent: renewalConsentField });
export const planWithLinkSchema = z.object({ planId: z.number(), linkId: gatewayIdField('linkId'), renewalConsent: renewalConsentField });
export const checkoutResponseSchema = z.object({ paymentLink: z.string() });
/** Ours (product.md#pay-now): Renew now's answer: Maya's page to go to, paid at once, or still being processed. */
export const renewResponseSchema = z.union([
  checkoutResponseSchema,
  z.object({ paid: z.literal(true) }),
  z.object({ pending: z.literal(true) }),
]);
export type RenewResponse = z.infer<typeof renewResponseSchema>;
export const vaultPaymentResponseSchema = z.object({ verificationUrl: z.optional(z.string()) });

export const voucherSubscriptionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  subscriptionPlanId: z.number(),
  startDate: z.string(),
  endDate: z.nullable(z.string()),
  status: subscriptionStatusSchema,
  paymentMethod: z.literal('VOUCHER'),
  details: z.object({
    amount: z.string(),
    createdAt: z.string(),
    voucherCode: z.string(),
    voucherCycle: z.string(),
    voucherDuration: z.union([z.string(), z.number()]),
    subscriptionDays: z.number(),
    originalVoucherTerms: z.optional(z.object({ cycle: z.string(), price: z.string(), duration: z.union([z.string(), z.number()]) })),
  }),
  isTrial: z.boolean(),
  trialStartDate: z.nullable(z.string()),
  trialEndDate: z.nullable(z.string()),
  pausedDate: z.nullable(z.string()),
  pauseResumeDate: z.nullable(z.string()),
  canceledDate: z.nullable(z.string()),
  canceledReason: z.nullable(z.string()),
  autoRenew: z.boolean(),
  isUpgraded: z.boolean(),
  previousPlanId: z.nullable(z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
  user: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  subscriptionPlan: z.object({
    id: z.number(),
    type: z.literal('VOUCHER'),
    name: z.string(),
    price: z.string(),
    currency: z.string(),
    billingCycle: z.literal('voucher'),
    duration: z.union([z.string(), z.number()]),
  }),
});

export const profileSchema = z.object({
  firstName: z.string(),
  middleName: z.nullish(z.string()),
  lastName: z.string(),
  email: z.string(),
  photo: z.nullish(z.string()),
  /** Ours (issue 34): the viewer's TIN with branch code, named on invoices issued after it is given; null: none. */
  tin: z.nullish(z.string()),
});

export const photoResultSchema = z.object({ photo: z.string() });

/**
 * Ours (issue 36): one signed-in device, its browser, system and device read from its User-Agent by the
 * server; `place` a country code only when a trusted proxy named one (else null); `current`: this device.
 */
export const signedInDeviceSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  device: z.nullable(z.string()),
  deviceType: z.enum(['mobile', 'tablet', 'desktop', 'other']),
  place: z.nullable(z.string()),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
});
export const signedInDevicesSchema = z.object({ sessions: z.array(signedInDeviceSchema) });
export const signedOutOthersSchema = z.object({ signedOut: z.number() });
/** Ours (issue 36): the address the change made, as the profile shows it. */
export const emailChangedSchema = z.object({ email: z.string() });

export const planUpdateResultSchema = z.object({
  paymentMethod: z.nullable(paymentMethodSchema),
  paymentLink: z.nullable(z.string()),
});

/** Ours (product.md#plan-preview): what a plan change would do now, computed by the server. */
export const planChangePreviewSchema = z.object({
  amountDue: z.string(),
  currency: z.string(),
  carriedDays: z.number(),
  newEndDate: z.string(),
  /**
   * A move down while paid time runs: nothing is charged now and the plan changes on this date (the
   * end of the paid period; product.md#scheduled-downgrade). Absent for a change made now.
   */
  changesOn: z.optional(z.string()),
});

export const appConfigSchema = z.object({
  baseUrl: z.string(),
  appStoreUrl: z.string(),
  playStoreUrl: z.string(),
  supportUrl: z.string(),
  socialLinks: z.array(z.object({ name: z.string(), url: z.string() })),
  /** The data protection officer's address (DPO_EMAIL); `dpoSample`: the embedded sample (issue 36). */
  dpoEmail: z.optional(z.string()),
  dpoSample: z.optional(z.boolean()),
});

/** "Download my data" (issue 36, product.md#data-export): the state of the viewer's latest export. */
export const dataExportStateSchema = z.object({
  state: z.enum(['NONE', 'PREPARING', 'READY', 'FAILED', 'EXPIRED']),
  requestedAt: z.nullable(z.string()),
  readyAt: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
});
export type DataExportState = z.infer<typeof dataExportStateSchema>;
/** A single-use download token for one file of a ready export. */
export const dataExportLinkSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type DataExportFormat = 'json' | 'html';

/* ----------------------------------------------------------------- requests */

export const signInRequestSchema = z.object({
  email: emailField,
  password: passwordField(messages.passwordRequired),
});

/** Today's date as YYYY-MM-DD in the viewer's own calendar, for the birthdate bound. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A real calendar date written YYYY-MM-DD (rejects 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const birthdateField = (today: () => string = () => todayIso()) =>
  z.string(lazy(messages.birthdateRequired)).check(
    z.trim(),
    z.minLength(1, lazy(messages.birthdateRequired)),
    z.refine(isCalendarDate, lazy(messages.birthdateRequired)),
    z.refine((value: string) => value >= EARLIEST_BIRTHDATE, lazy(messages.birthdateTooEarly)),
    z.refine((value: string) => value <= today(), lazy(messages.birthdateInFuture)),
  );

/** The latest birthdate of someone at least `MINIMUM_AGE` years old on `today` (both YYYY-MM-DD). */
export function latestAdultBirthdate(today: string): string {
  return `${String(Number(today.slice(0, 4)) - MINIMUM_AGE).padStart(4, '0')}${today.slice(4)}`;
}

/** Sign-up's birthdate: a real date, and the viewer is at least 18 (the terms). */
export const adultBirthdateField = (today: () => string = () => todayIso()) =>
  birthdateField(today).check(z.refine((value: string) => value <= latestAdultBirthdate(today()), lazy(messages.underMinimumAge)));

export const signUpRequestSchema = z
  .object({
    email: emailField,
    password: newPasswordField(messages.passwordRequired),
    passwordConfirm: passwordField(messages.passwordConfirmRequired),
    firstName: required(messages.firstNameRequired),
    lastName: required(messages.lastNameRequired),
    birthdate: adultBirthdateField(),
  })
  .check(
    z.refine((v) => v.password === v.passwordConfirm, {
      ...lazy(messages.passwordsMismatch),
      path: ['passwordConfirm'],
    }),
  );

export const signUpVerifyRequestSchema = z.object({
  verificationToken: required(messages.verificationTokenRequired, 2000),
  otpCode: otpField,
});
export const signUpResendRequestSchema = z.object({
  verificationToken: required(messages.verificationTokenRequired, 2000),
});

export const forgotSendRequestSchema = z.object({ email: emailField });
export const forgotVerifyRequestSchema = z.object({
  verifyToken: required(messages.verificationTokenRequired, 2000),
  otpCode: otpField,
});
export const resetPasswordRequestSchema = z
  .object({
    resetToken: required(messages.resetTokenRequired, 2000),
    password: newPasswordField(messages.passwordRequired),
    confirmPassword: passwordField(messages.passwordConfirmRequired),
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      ...lazy(messages.passwordsMismatch),
      path: ['confirmPassword'],
    }),
  );

export const verifyAuthLinkRequestSchema = z.object({ token: required(messages.tokenRequired, 2000) });

/** A TIN with its branch code (3 to 5 digits): 123-456-789-00000 (issue 34: the buyer's, on invoices). */
export const TIN_PATTERN = /^\d{3}-\d{3}-\d{3}-\d{3,5}$/;

export const profileUpdateRequestSchema = z.object({
  firstName: required(messages.firstNameRequired),
  middleName: z.optional(plainText(messages.textTooLong).check(z.trim(), z.maxLength(MAX_TEXT, lazy(messages.textTooLong)))),
  lastName: required(messages.lastNameRequired),
  /** Ours (issue 34): absent keeps the TIN, '' or null removes it, otherwise ###-###-###-### (branch 3 to 5 digits). */
  tin: z.optional(z.nullable(z.string().check(z.trim(), z.refine((value) => value === '' || TIN_PATTERN.test(value), lazy(messages.tinInvalid))))),
});

export const passwordChangeRequestSchema = z
  .object({
    oldPassword: passwordField(messages.oldPasswordRequired),
    newPassword: newPasswordField(messages.newPasswordRequired),
    confirmNewPassword: passwordField(messages.newPasswordConfirmRequired),
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmNewPassword, {
      ...lazy(messages.newPasswordsMismatch),
      path: ['confirmNewPassword'],
    }),
  );

/** Ours (issue 36): a change of email starts with the current password and the new address. */
export const emailChangeRequestSchema = z.object({
  password: passwordField(messages.passwordRequired),
  newEmail: emailField,
});
export const emailChangeVerifyRequestSchema = z.object({
  verificationToken: required(messages.verificationTokenRequired, 2000),
  otpCode: otpField,
});
export const emailChangeResendRequestSchema = z.object({
  verificationToken: required(messages.verificationTokenRequired, 2000),
});
/** The "this wasn't me" link's token (mailed to the old address). */
export const emailChangeUndoRequestSchema = z.object({ token: required(messages.tokenRequired, 2000) });

export const voucherRedeemRequestSchema = z.object({
  code: z.pipe(
    plainText(messages.voucherRequired).check(z.trim(), z.minLength(1, lazy(messages.voucherRequired)), z.maxLength(32, lazy(messages.textTooLong))),
    z.transform((v: string) => v.toUpperCase()),
  ),
});

/** An opaque identifier the server handed out: plain text, bounded. */
const idField = plainText(m.this_field_is_required).check(z.minLength(1, lazy(m.this_field_is_required)), z.maxLength(200, lazy(messages.textTooLong)));

export const subscriptionIdRequestSchema = z.object({ subscriptionId: idField });
export const planIdRequestSchema = z.object({ planId: z.number().check(z.int(), z.positive()) });
export const updatePaymentMethodRequestSchema = z.object({
  subscriptionId: idField,
  paymentMethod: z.enum(['MAYA_VAULT', 'MAYA_WALLET', 'MAYA_CHECKOUT']),
  paymentMethodDetails: z.optional(plainText(messages.textTooLong).check(z.maxLength(2000, lazy(messages.textTooLong)))),
  /** Ours: to a card or wallet (product.md#renewal-consent). */
  renewalConsent: renewalConsentField,
});
/**
 * Ours, beyond the spec's success and message: while PAST_DUE, when the new card or wallet is charged for
 * the overdue period (the instant the server scheduled it; null or absent: not now).
 */
export const updatePaymentMethodResultSchema = z.nullish(z.object({ chargeAt: z.nullish(z.string()) }));
export const updatePlanRequestSchema = z.object({
  subscriptionId: idField,
  planId: z.number().check(z.int(), z.positive()),
  /** Ours: when the subscription renews on a card or wallet (product.md#renewal-consent). */
  renewalConsent: renewalConsentField,
});
/** Reactivate: the spec's subscriptionId, and ours, the consent when it renews on a card or wallet (product.md#renewal-consent). */
export const resubscribeRequestSchema = z.object({ subscriptionId: idField, renewalConsent: renewalConsentField });
export const planChangePreviewQuerySchema = z.object({
  planId: z.pipe(
    z.pipe(z.string(lazy(m.planid_is_required)).check(z.regex(/^\d{1,9}$/, lazy(m.planid_must_be_a_number))), z.transform(Number)),
    z.number().check(z.int(), z.positive(lazy(m.planid_must_be_a_number))),
  ),
});

/* ----------------------------------------------------------------- types */

export type User = z.infer<typeof userSchema>;
export type AuthResult = z.infer<typeof authResultSchema>;
export type Plan = z.infer<typeof planSchema>;
export type BillingCycle = z.infer<typeof billingCycleSchema>;
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export type SubscriptionStatusDetails = z.infer<typeof subscriptionStatusDetailsSchema>;
export type SubscriptionHistoryItem = z.infer<typeof subscriptionHistoryItemSchema>;
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;
export type SavedCard = z.infer<typeof savedCardSchema>;
export type NewCard = z.input<typeof newCardSchema>;
export type WalletLink = z.infer<typeof walletLinkSchema>;
export type WalletLinkStartRequest = z.infer<typeof walletLinkStartRequestSchema>;
export type VoucherSubscription = z.infer<typeof voucherSubscriptionSchema>;
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type AppConfig = z.infer<typeof appConfigSchema>;
export type SignInRequest = z.infer<typeof signInRequestSchema>;
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;
/** The profile form's three names (the account page's fields); the call also takes the TIN (`ProfileUpdateWithTin`). */
export type ProfileUpdateRequest = Omit<z.infer<typeof profileUpdateRequestSchema>, 'tin'>;
/** The whole request the profile call accepts (issue 34: with the optional TIN). */
export type ProfileUpdateWithTin = z.infer<typeof profileUpdateRequestSchema>;
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;
export type SignedInDevice = z.infer<typeof signedInDeviceSchema>;
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;
