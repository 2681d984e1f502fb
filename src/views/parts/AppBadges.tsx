/** The App Store and Google Play links (the signed-in landing page, the payment result's "Start watching"). */
import { m } from '../../i18n';
import { APP_STORE_URL, PLAY_STORE_URL } from '../../lib/product';
import * as css from '../pages/landing.css';

export function AppBadges() {
  return (
    <div className={css.badges} aria-label={m.get_the_app()}>
      <a className={css.badge} href={APP_STORE_URL} target="_blank" rel="noreferrer">
        <span className={css.badgeSmall}>{m.download_on_the()}</span>
        <span className={css.badgeLarge}>{m.app_store()}</span>
      </a>
      <a className={css.badge} href={PLAY_STORE_URL} target="_blank" rel="noreferrer">
        <span className={css.badgeSmall}>{m.get_it_on()}</span>
        <span className={css.badgeLarge}>{m.google_play()}</span>
      </a>
    </div>
  );
}
