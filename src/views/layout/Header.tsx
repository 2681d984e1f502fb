import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button } from '../../styles/ui.css';
import { useServices } from '../services';
import * as css from './layout.css';
import { connectSession } from '../../machines/session';
import { useConnect } from '../useFlow';
import { lazyPage } from '../lazyPage';
import { useLoadedWhenIdle } from '../useIdle';
import { networkMessageOf } from '../../api/http';
import { notify } from '../Toasts';

// The menu (Ark UI) is only needed once signed in, so guests do not download it. While its code
// loads, a real button stands in and remembers a click, so the first click opens the menu.
// Its code is loaded once the browser is idle after the page's first render, or at a click (issue 21); the
// stand-in is replaced only once the menu can render at once.
const AccountMenu = lazyPage(() => import('./AccountMenu'));

export function Header() {
  const { session } = useServices();
  const status = useConnect(session, connectSession).status;
  const [first, second] = PRODUCT_NAME.split(' ');
  const [openRequested, setOpenRequested] = useState(false);
  const [path] = useLocation();
  const menu = useLoadedWhenIdle(AccountMenu, status === 'signedIn');
  // If the stand-in has the focus when the menu replaces it, the menu's own button takes it over.
  const [standInFocused, setStandInFocused] = useState(false);
  // A press on the stand-in keeps it until the press is over (after its click): replaced between the
  // press and the release, the click was lost (CI, clicking right after signing in).
  const [pressed, setPressed] = useState(false);
  function holdWhilePressed() {
    setPressed(true);
    // The press ends wherever the pointer is released (or the press is cancelled); both listeners go then.
    const listening = new AbortController();
    const release = () => {
      listening.abort();
      setTimeout(() => setPressed(false), 0);
    };
    document.addEventListener('pointerup', release, { capture: true, signal: listening.signal });
    document.addEventListener('pointercancel', release, { capture: true, signal: listening.signal });
  }
  // A click before the menu's code is in asks for it (again, after a failure) and opens the menu once it
  // is; if it cannot come, the stand-in stays and says so. The menu is rendered only once its code is in,
  // so the header (in every page's first file) needs no Suspense or error boundary for it.
  function openMenu() {
    setOpenRequested(true);
    menu.loadNow().catch((error: unknown) => {
      setOpenRequested(false);
      void notify('error', networkMessageOf(error));
    });
  }
  const standIn = (
    <button
      type="button"
      className={button.secondary}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={openRequested || undefined}
      onClick={openMenu}
      onPointerDown={holdWhilePressed}
      onFocus={() => setStandInFocused(true)}
      onBlur={() => setStandInFocused(false)}
    >
      {m.my_account()}
    </button>
  );
  return (
    <header className={css.header}>
      <Link href={routes.home} className={css.logo} aria-label={m.home({ PRODUCT_NAME })}>
        {first} <span className={css.logoAccent}>{second}</span>
      </Link>
      <nav aria-label={m.account()}>
        {status === 'signedIn' && (menu.loaded && !pressed ? <AccountMenu defaultOpen={openRequested} focusTrigger={standInFocused} /> : standIn)}
        {/* The sign-in page does not offer itself again. */}
        {status === 'signedOut' && path !== routes.login && (
          <Link href={routes.login} className={button.primary}>{m.log_in()}</Link>
        )}
      </nav>
    </header>
  );
}
