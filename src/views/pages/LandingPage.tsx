import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { APP_STORE_URL, PLAY_STORE_URL, PRODUCT_NAME, PRODUCT_TAGLINE } from '../../lib/product';
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

  return (
    <>
      <section className={css.hero} aria-labelledby="hero-title">
        <h1 id="hero-title" className={css.heroTitle}>
          Welcome to <span className={css.heroName}>{PRODUCT_NAME}</span>
        </h1>
        <p className={css.tagline}>{PRODUCT_TAGLINE}</p>
        {status === 'signedOut' && (
          <form className={css.emailForm} onSubmit={onGetStarted} aria-label="Get started">
            <label htmlFor={emailId} className="visually-hidden">Email address</label>
            <input
              id={emailId} name="email" type="email" required autoComplete="email"
              placeholder="Enter your Email Address" className={`${input} ${css.emailInput}`}
            />
            <button type="submit" className={button.primary}>Get Started</button>
          </form>
        )}
        {status === 'signedIn' && (
          <div className={css.badges} aria-label="Get the app">
            <a className={css.badge} href={APP_STORE_URL} target="_blank" rel="noreferrer">
              <span className={css.badgeSmall}>Download on the</span>
              <span className={css.badgeLarge}>App Store</span>
            </a>
            <a className={css.badge} href={PLAY_STORE_URL} target="_blank" rel="noreferrer">
              <span className={css.badgeSmall}>Get it on</span>
              <span className={css.badgeLarge}>Google Play</span>
            </a>
          </div>
        )}
      </section>
      <section id="faq" className={css.faq} aria-labelledby="faq-title">
        <h2 id="faq-title" className={heading}>Frequently Asked Questions</h2>
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
          <div key={item.question} className={css.faqItem} data-state={state}>
            <h3 className={css.faqHeading}>
              <button
                type="button" id={`${baseId}-t${index}`} className={css.faqTrigger}
                aria-expanded={expanded} aria-controls={`${baseId}-c${index}`} onClick={() => toggle(index)}
              >
                {item.question}
                <span className={css.faqIndicator} data-state={state} aria-hidden="true">▾</span>
              </button>
            </h3>
            <div
              id={`${baseId}-c${index}`} role="region" aria-labelledby={`${baseId}-t${index}`}
              className={css.faqContent} hidden={!expanded}
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
