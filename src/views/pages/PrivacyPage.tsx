import { Link } from 'wouter';
import { currentLocale, m } from '../../i18n';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { heading, muted } from '../../styles/ui.css';
import { legal, prevails } from './legal.css';

export default function PrivacyPage() {
  // The link sits inside the sentence, where each language puts it.
  const [seeAlsoBefore, seeAlsoAfter] = m.see_also_our({ link: '\u0000' }).split('\u0000');
  return (
    <article className={legal}>
      <h1 className={heading}>{m.privacy_policy()}</h1>
      {currentLocale() !== 'en' && <p className={prevails} role="note">{m.legal_english_prevails()}</p>}
      <p className={muted}>{m.how_handles_your_personal({ PRODUCT_NAME })}</p>
      <h2>{m.what_we_collect()}</h2>
      <p>{m.your_email_name_birthdate_and()}</p>
      <h2>{m.children()}</h2>
      <p>{m.is_not_directed_at_children_under_13({ PRODUCT_NAME })}</p>
      <h2>{m.payments()}</h2>
      <p>{m.payments_are_processed_by_maya()}</p>
      <p>{seeAlsoBefore}<Link href={routes.terms}>{m.terms_and_conditions()}</Link>{seeAlsoAfter}</p>
    </article>
  );
}
