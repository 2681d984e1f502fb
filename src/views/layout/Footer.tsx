import { Link } from 'wouter';
import { PRODUCT_NAME, SOCIAL_LINKS, SUPPORT_URL } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { chooseLanguage, currentLocale, LANGUAGE_NAMES, locales, m, type Locale } from '../../i18n';
import { connectSession } from '../../machines/session';
import { useServices } from '../services';
import { useConnect } from '../useFlow';
import { THEME_CHOICES, useTheme, type ThemeChoice } from '../useTheme';
import * as css from './layout.css';

const THEME_LABELS: Record<ThemeChoice, () => string> = { light: m.light, dark: m.dark, system: m.system };

export function Footer() {
  const { choice, setChoice } = useTheme();
  const { http, session } = useServices();
  const { signedIn } = useConnect(session, connectSession);
  // The account's copy of the choice is written through the contract (zod), loaded only when it is needed:
  // the footer is on the landing page, which carries no schema.
  const save = (locale: Locale) => () => import('../../api/language').then(({ saveLanguage }) => saveLanguage(http, locale));
  const choose = (locale: Locale) => void chooseLanguage(locale, signedIn ? save(locale) : undefined);
  return (
    <footer className={css.footer}>
      <div className={css.footerGrid}>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className={css.footerHeading}>{m.support()}</h2>
          <ul className={css.footerList}>
            <li><a href={SUPPORT_URL} target="_blank" rel="noreferrer">{m.contact_us_on_facebook()}</a></li>
            <li><Link href={`${routes.home}#faq`}>{m.frequently_asked_questions()}</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-account">
          <h2 id="footer-account" className={css.footerHeading}>{m.account()}</h2>
          <ul className={css.footerList}>
            <li><Link href={routes.account}>{m.account()}</Link></li>
            <li><Link href={routes.subscription}>{m.subscription()}</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className={css.footerHeading}>{m.legal()}</h2>
          <ul className={css.footerList}>
            <li><Link href={routes.terms}>{m.terms_and_conditions()}</Link></li>
            <li><Link href={routes.privacy}>{m.privacy_policy()}</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className={css.footerHeading}>{m.follow_us()}</h2>
          <ul className={css.footerList}>
            {SOCIAL_LINKS.map((link) => (
              <li key={link.name}><a href={link.url} target="_blank" rel="noreferrer">{link.name}</a></li>
            ))}
          </ul>
        </section>
        <fieldset className={css.themeGroup}>
          <legend className={css.footerHeading}>{m.theme()}</legend>
          {THEME_CHOICES.map((option) => (
            <label key={option}>
              <input type="radio" name="theme" value={option} checked={choice === option} onChange={() => setChoice(option)} />{' '}
              {THEME_LABELS[option]()}
            </label>
          ))}
        </fieldset>
        <fieldset className={css.themeGroup}>
          <legend className={css.footerHeading}>{m.language()}</legend>
          {locales.map((locale) => (
            <label key={locale} lang={locale}>
              <input type="radio" name="language" value={locale} checked={currentLocale() === locale} onChange={() => choose(locale)} />{' '}
              {LANGUAGE_NAMES[locale]}
            </label>
          ))}
        </fieldset>
      </div>
      <p className={css.copyright}>{m.para_sa_pelikulang_bisaya({ year: new Date().getFullYear(), PRODUCT_NAME })}</p>
    </footer>
  );
}
