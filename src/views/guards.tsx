/** The guards of product.md#guards: guest-only pages send a signed-in user to /, signed-in pages send a guest to /login?from=. */
import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { loginPathFor, routes } from '../lib/route-paths';
import { m } from '../i18n';
import { useServices } from './services';
import { connectSession } from '../machines/session';
import { useConnect } from './useFlow';

function SessionLoading() {
  return <p role="status" className="visually-hidden">{m.loading()}</p>;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  const { session } = useServices();
  const status = useConnect(session, connectSession).status;
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedIn') return <Redirect to={routes.home} replace />;
  return <>{children}</>;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const { session } = useServices();
  const status = useConnect(session, connectSession).status;
  const [path] = useLocation();
  const search = useSearch();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'signedOut') return <Redirect to={loginPathFor(search ? `${path}?${search}` : path)} replace />;
  return <>{children}</>;
}
