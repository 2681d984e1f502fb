import { Suspense, type ReactNode } from 'react';
import { Route, Router, Switch } from 'wouter';
import { m } from '../i18n';
import { GuestOnly, RequireAuth } from './guards';
import { Footer } from './layout/Footer';
import { Header } from './layout/Header';
import * as css from './layout/layout.css';
import { FlowOverridesContext, ServicesContext, type FlowOverrides, type Services } from './services';
import { Toasts } from './Toasts';
import { useRouteChange } from './routeChange';
import { lazyPage, type LazyPage } from './lazyPage';
import { NotFoundPage, ROUTE_TABLE, routeFor, type AppRoute } from './routeTable';

const SignedInGroup = lazyPage(() => import('./SignedInGroup'));

/**
 * Loads a path's page code, and the signed-in group's where the route has one, before the app's first
 * render (main.tsx, for a signed-in viewer): that render then shows the page itself, not a loading
 * fallback first. A failure is left to the render, which meets it as it would have.
 */
export function loadPageCode(path: string): Promise<void> {
  const route = routeFor(path);
  if (!route) return Promise.resolve();
  const group = route.guard === 'signedIn' || route.guard === 'publicWithAccount' ? [SignedInGroup.load()] : [];
  return Promise.all([(route.page as Partial<LazyPage>).load?.(), ...group]).then(() => undefined, () => undefined);
}

function PageLoading() {
  return <p role="status" aria-live="polite" className="visually-hidden">{m.loading_page()}</p>;
}

function SignedIn({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <SignedInGroup>{children}</SignedInGroup>
    </RequireAuth>
  );
}

/** A route's page behind its guard (product.md#guards). */
function Guarded({ route }: { route: AppRoute }) {
  const Page = route.page;
  switch (route.guard) {
    case 'guest': return <GuestOnly><Page /></GuestOnly>;
    case 'signedIn': return <SignedIn><Page /></SignedIn>;
    // The payment result has the normal header, so a viewer back from the gateway knows where they are;
    // a signed-in viewer also sees the payment's details, read through the signed-in group's queries.
    case 'publicWithAccount': return <SignedInGroup><Page /></SignedInGroup>;
    default: return <Page />;
  }
}

export function AppRoutes() {
  useRouteChange();
  return (
    <Suspense fallback={<PageLoading />}>
      <Switch>
        <Route>
          <div className={css.shell}>
            <Header />
            <main id="main" className={css.main} tabIndex={-1}>
              <Suspense fallback={<PageLoading />}>
                <Switch>
                  {ROUTE_TABLE.map((route) => (
                    <Route key={String(route.path)} path={route.path}><Guarded route={route} /></Route>
                  ))}
                  <Route component={NotFoundPage} />
                </Switch>
              </Suspense>
            </main>
            <Footer />
          </div>
        </Route>
      </Switch>
    </Suspense>
  );
}

export function App({ services, overrides = {}, ssrPath }: { services: Services; overrides?: FlowOverrides; ssrPath?: string }) {
  return (
    <ServicesContext.Provider value={services}>
      <FlowOverridesContext.Provider value={overrides}>
        <Router ssrPath={ssrPath}>
          <AppRoutes />
          {/* In the router: a toast is dismissed when the page it was about is left. */}
          <Toasts />
        </Router>
      </FlowOverridesContext.Provider>
    </ServicesContext.Provider>
  );
}
