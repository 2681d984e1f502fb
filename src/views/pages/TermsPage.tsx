import { Link } from 'wouter';
import { currentLocale, m } from '../../i18n';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { heading, muted } from '../../styles/ui.css';
import { legal, prevails } from './legal.css';

export default function TermsPage() {
  // The link sits inside the sentence, where each language puts it.
  const [seeAlsoBefore, seeAlsoAfter] = m.see_also_our({ link: '\u0000' }).split('\u0000');
  return (
    <article className={legal}>
      <h1 className={heading}>{m.terms_and_conditions()}</h1>
      {currentLocale() !== 'en' && <p className={prevails} role="note">{m.legal_english_prevails()}</p>}
      <p className={muted}>{m.these_terms_govern_your_use_of({ PRODUCT_NAME })}</p>
      <h2>{m.who_may_use({ PRODUCT_NAME })}</h2>
      <p>{m.you_must_be_at_least_18_years_old_to()}</p>
      <h2>{m.subscriptions_and_payment()}</h2>
      <p>{m.premium_subscriptions_are_paid()}</p>
      <p>{m.subscription_fees_are_non_refundable_2()}</p>
      <p>{m.a_checkout_payment_is_a_one_time()}</p>
      <h2>{m.cancellation()}</h2>
      <p>{m.cancellation_takes_effect_at_the_end()}</p>
      <h2>{m.content()}</h2>
      <p>{m.videos_are_streamed_in_the_mobile()}</p>
      <p>{seeAlsoBefore}<Link href={routes.privacy}>{m.privacy_policy()}</Link>{seeAlsoAfter}</p>
    </article>
  );
}
