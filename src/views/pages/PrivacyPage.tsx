import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { currentLocale, m } from '../../i18n';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { heading, muted } from '../../styles/ui.css';
import { legal, prevails } from './legal.css';

interface Dpo {
  email: string;
  sample: boolean;
}

/**
 * The data protection officer's address (DPO_EMAIL, product.md#privacy-rights), from /app-config.json:
 * read after the page shows (the prerendered page has none yet), without the API's schemas (bundle budget).
 */
function useDpo(): Dpo | null {
  const [dpo, setDpo] = useState<Dpo | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/app-config.json', { headers: { Accept: 'application/json' }, signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((config: { dpoEmail?: unknown; dpoSample?: unknown } | null) => {
        if (config && typeof config.dpoEmail === 'string') setDpo({ email: config.dpoEmail, sample: config.dpoSample !== false });
      })
      .catch(() => {});
    return () => controller.abort();
  }, []);
  return dpo;
}

/** A message with one link inside it, where each language puts it. */
function withLink(text: (args: { link: string }) => string, link: ReactNode) {
  const [before, after] = text({ link: '\u0000' }).split('\u0000');
  return <>{before}{link}{after}</>;
}

export default function PrivacyPage() {
  const dpo = useDpo();
  return (
    <article className={legal}>
      <h1 className={heading}>{m.privacy_policy()}</h1>
      {currentLocale() !== 'en' && <p className={prevails} role="note">{m.legal_english_prevails()}</p>}
      <p className={muted}>{m.how_handles_your_personal({ PRODUCT_NAME })}</p>
      <h2>{m.what_we_collect()}</h2>
      <p>{m.your_email_name_birthdate_and()}</p>
      <p>{m.privacy_collect_devices()}</p>
      <h2>{m.why_we_use_it()}</h2>
      <p>{m.privacy_why()}</p>
      <h2>{m.how_long_we_keep_it()}</h2>
      <p>{m.privacy_how_long()}</p>
      <h2>{m.your_rights()}</h2>
      <p>{m.privacy_rights()}</p>
      <h2>{m.how_to_use_them()}</h2>
      <p>{withLink(m.privacy_how_to_use, <Link href={routes.account}>{m.account()}</Link>)}</p>
      <h2>{m.data_protection_officer()}</h2>
      <p aria-live="polite">
        {dpo && (
          <>
            <a href={`mailto:${dpo.email}`}>{dpo.email}</a>
            {dpo.sample && <> <span className={muted}>{m.sample_address_not_a_real_contact()}</span></>}
          </>
        )}
      </p>
      <p>{m.privacy_complaint()}</p>
      <h2>{m.children()}</h2>
      <p>{m.is_not_directed_at_children_under_13({ PRODUCT_NAME })}</p>
      <h2>{m.payments()}</h2>
      <p>{m.payments_are_processed_by_maya()}</p>
      <p>{withLink(m.see_also_our, <Link href={routes.terms}>{m.terms_and_conditions()}</Link>)}</p>
    </article>
  );
}
