import { Link } from 'wouter';
import { PRODUCT_NAME, SOCIAL_LINKS, SUPPORT_URL } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { THEME_CHOICES, useTheme, type ThemeChoice } from '../useTheme';
import * as css from './layout.css';

const THEME_LABELS: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };

export function Footer() {
  const { choice, setChoice } = useTheme();
  return (
    <footer className={css.footer}>
      <div className={css.footerGrid}>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className={css.footerHeading}>Support</h2>
          <ul className={css.footerList}>
            <li><a href={SUPPORT_URL} target="_blank" rel="noreferrer">Contact us on Facebook</a></li>
            <li><Link href={`${routes.home}#faq`}>Frequently Asked Questions</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-account">
          <h2 id="footer-account" className={css.footerHeading}>Account</h2>
          <ul className={css.footerList}>
            <li><Link href={routes.account}>Account</Link></li>
            <li><Link href={routes.subscription}>Subscription</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className={css.footerHeading}>Legal</h2>
          <ul className={css.footerList}>
            <li><Link href={routes.terms}>Terms and Conditions</Link></li>
            <li><Link href={routes.privacy}>Privacy Policy</Link></li>
          </ul>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className={css.footerHeading}>Follow us</h2>
          <ul className={css.footerList}>
            {SOCIAL_LINKS.map((link) => (
              <li key={link.name}><a href={link.url} target="_blank" rel="noreferrer">{link.name}</a></li>
            ))}
          </ul>
        </section>
        <fieldset className={css.themeGroup}>
          <legend className={css.footerHeading}>Theme</legend>
          {THEME_CHOICES.map((option) => (
            <label key={option}>
              <input type="radio" name="theme" value={option} checked={choice === option} onChange={() => setChoice(option)} />{' '}
              {THEME_LABELS[option]}
            </label>
          ))}
        </fieldset>
      </div>
      <p className={css.copyright}>© {new Date().getFullYear()} {PRODUCT_NAME}. Para sa pelikulang Bisaya.</p>
    </footer>
  );
}
