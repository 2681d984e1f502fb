/**
 * Card rules (product.md#card-rules), one module for the app and the reference server: the number grouped in
 * fours (at most 19 characters, 16 digits), the brand from its first digits, the Luhn check, expiry
 * MM/YY checked by the month in Asia/Manila, a 3-digit CVC, and the messages each rule gives. Pure, so
 * the form, the machine, the server's card route, the sandbox and the property tests share one
 * definition. Nothing here keeps or logs a card number.
 * The messages are catalog messages (issue 20), read when a card is checked, in the language in use.
 */
import { m } from '../i18n';
import { MANILA_OFFSET_MS } from './product';

export const CARD_MESSAGES = {
  fillAll: m.please_fill_in_all_the_fields,
  unsupported: m.this_card_type_is_not_supported,
  invalidNumber: m.invalid_card_number,
  invalidMonth: m.invalid_month,
  expired: m.card_expired,
} as const;

/** What each empty field says beside the 'Please fill in all the fields' toast (the fields are marked, the first takes focus). */
export const CARD_REQUIRED = {
  number: m.enter_the_card_number,
  expiry: m.enter_the_expiry_date_mm_yy,
  cvc: m.enter_the_3_digit_security_code,
} as const;

export const MAX_CARD_DIGITS = 16;
/** 16 digits and 3 spaces. */
export const MAX_CARD_LENGTH = 19;
export const CVC_LENGTH = 3;

export type CardBrand = 'visa' | 'mastercard' | 'jcb';

export const BRAND_NAMES: Record<CardBrand, string> = { visa: 'Visa', mastercard: 'Mastercard', jcb: 'JCB' };

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** '4123450131001381' (or anything typed) → '4123 4501 3100 1381': digits only, at most 16, in fours. */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, MAX_CARD_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Visa starts with 4, Mastercard 51–55, JCB 3528–3589 (product.md#card-rules); anything else is no brand. */
export function cardBrand(value: string): CardBrand | null {
  const digits = digitsOf(value);
  if (digits.startsWith('4')) return 'visa';
  const two = Number(digits.slice(0, 2));
  if (digits.length >= 2 && two >= 51 && two <= 55) return 'mastercard';
  const four = Number(digits.slice(0, 4));
  if (digits.length >= 4 && four >= 3528 && four <= 3589) return 'jcb';
  return null;
}

/** What is typed into the expiry field → 'MM/YY' as it grows ('1' → '1', '123' → '12/3'). */
export function formatExpiry(value: string): string {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** CVC: digits only, at most 3 in the entry field. */
export function formatCvc(value: string): string {
  return digitsOf(value).slice(0, CVC_LENGTH);
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardInput;
export type CardErrors = Partial<Record<CardField, string>>;

/** The month this is in Asia/Manila, as year*12 + month (1–12). */
export function manilaMonthIndex(now: Date): number {
  const manila = new Date(now.getTime() + MANILA_OFFSET_MS);
  return manila.getUTCFullYear() * 12 + manila.getUTCMonth() + 1;
}

/** The Luhn checksum of a string of digits. */
export function luhn(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = Number(number[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * A new card as the server receives it (digits, 'MM', 'YYYY'): null when it can be saved, else the
 * message of the first rule it breaks (number, brand, month, expiry by the month in Asia/Manila).
 */
export function newCardError(card: { number: string; expMonth: string; expYear: string }, now: Date): string | null {
  if (!/^\d{12,19}$/.test(card.number) || !luhn(card.number)) return CARD_MESSAGES.invalidNumber();
  if (!cardBrand(card.number)) return CARD_MESSAGES.unsupported();
  const month = Number(card.expMonth);
  if (!/^\d{2}$/.test(card.expMonth) || month < 1 || month > 12) return CARD_MESSAGES.invalidMonth();
  if (!/^\d{4}$/.test(card.expYear) || Number(card.expYear) * 12 + month < manilaMonthIndex(now)) return CARD_MESSAGES.expired();
  return null;
}

/**
 * 'MM/YY' → null when valid, else 'Invalid month' (month outside 1–12) or 'Card expired' (a month
 * before this one in Asia/Manila; the card works through its expiry month).
 */
export function expiryError(expiry: string, now: Date): string | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  if (!match) return CARD_MESSAGES.invalidMonth();
  const month = Number(match[1]);
  if (month < 1 || month > 12) return CARD_MESSAGES.invalidMonth();
  const year = 2000 + Number(match[2]);
  return year * 12 + month < manilaMonthIndex(now) ? CARD_MESSAGES.expired() : null;
}

/** The form's errors: missing fields first ('Please fill in all the fields'), then each rule. */
export function cardErrors(card: CardInput, now: Date): { form: string | null; fields: CardErrors } {
  const number = digitsOf(card.number);
  const empty: CardErrors = {};
  if (!number) empty.number = CARD_REQUIRED.number();
  if (!card.expiry.trim()) empty.expiry = CARD_REQUIRED.expiry();
  if (!card.cvc.trim()) empty.cvc = CARD_REQUIRED.cvc();
  if (Object.keys(empty).length > 0) return { form: CARD_MESSAGES.fillAll(), fields: empty };
  const fields: CardErrors = {};
  if (number.length < MAX_CARD_DIGITS) fields.number = m.enter_the_16_digits_of_the_card();
  // As the server checks it (newCardError): a mistyped digit is caught here, not after a round trip.
  else if (!luhn(number)) fields.number = CARD_MESSAGES.invalidNumber();
  else if (!cardBrand(number)) fields.number = CARD_MESSAGES.unsupported();
  const expiry = expiryError(card.expiry, now);
  if (expiry) fields.expiry = expiry;
  if (!/^\d{3}$/.test(card.cvc)) fields.cvc = m.enter_the_3_digits_on_the_back_of();
  return { form: null, fields };
}

/** The request body of product.md#new-card (expiry month 2 characters, year 4). */
export function newCardRequest(card: CardInput, isDefault: boolean) {
  const [month = '', year = ''] = card.expiry.split('/');
  return { number: digitsOf(card.number), expMonth: month, expYear: `20${year}`, cvc: card.cvc, isDefault };
}

/** '**** **** **** 1381' (product.md#card-option). */
export function maskedCardNumber(last4: string): string {
  return `**** **** **** ${last4}`;
}

/** Maya's card type ('visa', 'master-card', 'jcb') in words; another value as sent. */
export function cardTypeLabel(cardType: string): string {
  const key = cardType.toLowerCase().replace(/[^a-z]/g, '');
  if (key === 'visa') return BRAND_NAMES.visa;
  if (key === 'mastercard') return BRAND_NAMES.mastercard;
  if (key === 'jcb') return BRAND_NAMES.jcb;
  return cardType;
}

/** A card's expiry as the viewer reads it: 'MM/YYYY' (product.md#card-expiry). */
export function cardExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${year}`;
}

/** The first instant a card no longer works: the start of the month after its expiry month, in Asia/Manila. */
export function cardExpiresAt(month: number, year: number): Date {
  return new Date(Date.UTC(year, month, 1) - MANILA_OFFSET_MS);
}
