import { Accordion } from '@ark-ui/react/accordion';
import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { APP_STORE_URL, PLAY_STORE_URL, PRODUCT_NAME, PRODUCT_TAGLINE } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { button, heading, input } from '../../styles/ui.css';
import { useServices } from '../services';
import { FAQ_ITEMS } from './faq';
import * as css from './landing.css';

export default function LandingPage() {
  const { session } = useServices();
  const status = useSelector(session, (s) => s.value);
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
        <Accordion.Root multiple collapsible>
          {FAQ_ITEMS.map((item, index) => (
            <Accordion.Item key={item.question} value={`faq-${index}`} className={css.faqItem}>
              <h3 className={css.faqHeading}>
                <Accordion.ItemTrigger className={css.faqTrigger}>
                  {item.question}
                  <Accordion.ItemIndicator className={css.faqIndicator} aria-hidden="true">▾</Accordion.ItemIndicator>
                </Accordion.ItemTrigger>
              </h3>
              <Accordion.ItemContent className={css.faqContent}>{item.answer}</Accordion.ItemContent>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </section>
    </>
  );
}
