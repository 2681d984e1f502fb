import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { PRODUCT_NAME } from '../../lib/product';
import { AppBadges } from '../parts/AppBadges';
import { m } from '../../i18n';
import { routes } from '../../lib/route-paths';
import { button, heading, input } from '../../styles/ui.css';
import { useServices } from '../services';
import { FAQ_ITEMS } from './faq';
import * as css from './landing.css';
import { connectSession } from '../../machines/session';
import { useConnect } from '../useFlow';

export default function LandingPage() {
  const { session } = useServices();
  const status = useConnect(session, connectSession).status;
  const [, navigate] = useLocation();
  const emailId = useId();

  function onGetStarted(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    navigate(`${routes.register}?email=${encodeURIComponent(email)}`);
  }

  // The product's name sits inside the welcome sentence, where each language puts it.
  const [welcomeBefore, welcomeAfter] = m.welcome_to({ PRODUCT_NAME: '\u0000' }).split('\u0000');

  return (
    <>
      <section className={css.hero} aria-labelledby="hero-title">
        <h1 id="hero-title" className={css.heroTitle}>
          {welcomeBefore}<span className={css.heroName}>{PRODUCT_NAME}</span>{welcomeAfter}
        </h1>
        <p className={css.tagline}>{m.bisaya_films_and_series_made_at_home()}</p>
        {status === 'signedOut' && (
          <form className={css.emailForm} onSubmit={onGetStarted} aria-label={m.get_started()}>
            <label htmlFor={emailId} className="visually-hidden">{m.email_address()}</label>
            <input
              id={emailId} name="email" type="email" required autoComplete="email"
              placeholder={m.enter_your_email_address()} className={`${input} ${css.emailInput}`}
            />
            <button type="submit" className={button.primary}>{m.get_started_2()}</button>
          </form>
        )}
        {status === 'signedIn' && <AppBadges />}
      </section>
      <section id="faq" className={css.faq} aria-labelledby="faq-title">
        <h2 id="faq-title" className={heading}>{m.frequently_asked_questions()}</h2>
        <Faq />
      </section>
    </>
  );
}

/**
 * The FAQ accordion (WAI-ARIA accordion pattern: a button per heading with aria-expanded and
 * aria-controls, a labelled region), several items open at once. Hand-written rather than Ark UI's
 * Accordion: on the landing page Ark's runtime cost about 13 KB gzipped of the 93 KB budget (issue 10).
 */
function Faq() {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const baseId = useId();
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  return (
    <div>
      {FAQ_ITEMS.map((item, index) => {
        const expanded = open.has(index);
        const state = expanded ? 'open' : 'closed';
        return (
          <div key={index} className={css.faqItem} data-state={state}>
            <h3 className={css.faqHeading}>
              <button
                type="button" id={`${baseId}-t${index}`} className={css.faqTrigger}
                aria-expanded={expanded} aria-controls={`${baseId}-c${index}`} onClick={() => toggle(index)}
              >
                {item.question()}
                <span className={css.faqIndicator} data-state={state} aria-hidden="true">▾</span>
              </button>
            </h3>
            <div
              id={`${baseId}-c${index}`} role="region" aria-labelledby={`${baseId}-t${index}`}
              className={css.faqContent} hidden={!expanded}
            >
              {item.answer()}
            </div>
          </div>
        );
      })}
    </div>
  );
}
