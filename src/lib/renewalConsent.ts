/**
 * The sentence a viewer agrees to before a payment that renews on a card or Maya wallet
 * (product.md#renewal-consent): written by the app from the catalogs, and again by the server, which
 * checks that the words the app sent are that sentence in their language and records both.
 */
import { currentLocale, m, type Locale } from '../i18n';
import { formatDate } from './dates';
import { formatPrice } from './format';
import { DISPLAY_TIME_ZONE } from './product';

export interface RenewalTerms {
  /** When the next automatic charge is made. */
  renewsOn: Date | string;
  amount: string;
  currency: string;
}

/** 'Renews automatically on 12/15/2026 at ₱99 until you cancel. Cancel anytime on Subscription.' */
export function renewalConsentText(terms: RenewalTerms, locale?: Locale): string {
  const date = locale ? formatDate(terms.renewsOn, DISPLAY_TIME_ZONE, locale) : formatDate(terms.renewsOn);
  return m.renews_automatically_on_date_at({ date, price: formatPrice(terms.amount, terms.currency) }, locale ? { locale } : undefined);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text is the sentence in `locale`, whatever date and price it names (each a short run of text). */
export function isRenewalConsentSentence(text: string, locale: Locale): boolean {
  const marker = '\u0000';
  const template = m.renews_automatically_on_date_at({ date: marker, price: marker }, { locale });
  const pattern = new RegExp(`^${template.split(marker).map(escapeRegExp).join('[^\\u0000-\\u001f]{1,40}?')}$`);
  return pattern.test(text);
}

/** What the app sends once the viewer ticked the box under `text`: the words and the language they were read in. */
export function ticked(text: string): { accepted: true; text: string; language: Locale } {
  return { accepted: true, text, language: currentLocale() };
}
