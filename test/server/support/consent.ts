/**
 * The renewal consent a client sends with a payment or change that renews on a card or wallet
 * (product.md#renewal-consent): the catalog's sentence in that language, ticked.
 */
import { renewalConsentText } from '../../../src/lib/renewalConsent';
import type { ConsentRequest } from '../../../server/billing/consent';

export const renewalConsent = (language: 'en' | 'ceb' = 'en', terms = { renewsOn: new Date('2026-12-15T04:00:00Z'), amount: '99.00', currency: 'PHP' }) => ({
  accepted: true,
  text: renewalConsentText(terms, language),
  language,
});

/** Spread into a request body: `{ ...CONSENT, planId, cardToken }`. */
export const CONSENT = { renewalConsent: renewalConsent() };

/** For a use-case called directly (buyWithCard, changePlan …). */
export const CONSENTED: ConsentRequest = { consent: renewalConsent(), clientAddress: '127.0.0.1' };
