import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { button } from '../../styles/ui.css';
import { useServices } from '../services';
import * as css from './layout.css';

// The menu (Ark UI) is only needed once signed in, so guests do not download it.
const AccountMenu = lazy(() => import('./AccountMenu'));

export function Header() {
  const { session } = useServices();
  const status = useSelector(session, (s) => s.value);
  const [first, second] = PRODUCT_NAME.split(' ');
  return (
    <header className={css.header}>
      <Link href={routes.home} className={css.logo} aria-label={`${PRODUCT_NAME} home`}>
        {first} <span className={css.logoAccent}>{second}</span>
      </Link>
      <nav aria-label="Account">
        {status === 'signedIn' && (
          <Suspense fallback={<span className={button.secondary} aria-hidden="true">My Account</span>}>
            <AccountMenu />
          </Suspense>
        )}
        {status === 'signedOut' && (
          <Link href={routes.login} className={button.primary}>Log In</Link>
        )}
      </nav>
    </header>
  );
}
