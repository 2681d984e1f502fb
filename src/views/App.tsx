import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Router, Switch } from 'wouter';
import { routes } from '../lib/route-paths';
import { recoveryRoute } from '../machines/recovery/recovery.address';
import { signUpRoute } from '../machines/signUp/signUp.address';
import { GuestOnly, RequireAuth } from './guards';
import { Footer } from './layout/Footer';
import { Header } from './layout/Header';
import * as css from './layout/layout.css';
import LandingPage from './pages/LandingPage';
import { FlowOverridesContext, ServicesContext, type FlowOverrides, type Services } from './services';
import { Toasts } from './Toasts';
import { useRouteChange } from './routeChange';

// Every route but the landing page is its own chunk, so later pages never grow the landing page.
const LoginPage = lazy(() => import('./pages/LoginPage'));
const TermsPage = lazy(() => import('./pages/TermsPage'));
const PrivacyPage = lazy(() => import('./pages/PrivacyPage'));
const PaymentResultPage = lazy(() => import('./pages/PaymentResultPage'));
const AccountPage = lazy(() => import('./pages/AccountPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
const RegisterPage = lazy(() => import('./pages/RegisterPage'));
const RecoveryPage = lazy(() => import('./pages/RecoveryPage'));
const AuthLinkPage = lazy(() => import('./pages/AuthLinkPage'));
const SubscriptionPage = lazy(() => import('./pages/SubscriptionPage'));
const RedeemVoucherPage = lazy(() => import('./pages/RedeemVoucherPage'));
const ChangePlanPage = lazy(() => import('./pages/ChangePlanPage'));
const ChangePaymentMethodPage = lazy(() => import('./pages/ChangePaymentMethodPage'));
const SubscribePage = lazy(() => import('./pages/SubscribePage'));
const ReceiptPage = lazy(() => import('./pages/ReceiptPage'));
const SignedInGroup = lazy(() => import('./SignedInGroup'));

function PageLoading() {
  return <p role="status" aria-live="polite" className="visually-hidden">Loading page…</p>;
}

function SignedIn({ children }: { children: ReactNode }) {
  return (
    <RequireAuth>
      <SignedInGroup>{children}</SignedInGroup>
    </RequireAuth>
  );
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
                  <Route path={routes.home} component={LandingPage} />
                  {/* The payment result has the normal header, so a viewer back from the gateway knows where they are;
                      a signed-in viewer also sees the payment's details, read through the signed-in group's queries. */}
                  <Route path={routes.payment}><SignedInGroup><PaymentResultPage /></SignedInGroup></Route>
                  <Route path={routes.terms} component={TermsPage} />
                  <Route path={routes.privacy} component={PrivacyPage} />
                  <Route path={routes.login}><GuestOnly><LoginPage /></GuestOnly></Route>
                  {/* One route per flow, so its machine lives on while the URL moves between its steps. */}
                  <Route path={signUpRoute}><GuestOnly><RegisterPage /></GuestOnly></Route>
                  <Route path={recoveryRoute}><GuestOnly><RecoveryPage /></GuestOnly></Route>
                  {/* A login link signs in whoever it names, even over another session (the mobile app sends it). */}
                  <Route path={routes.authLink} component={AuthLinkPage} />
                  <Route path={routes.account}><SignedIn><AccountPage /></SignedIn></Route>
                  <Route path={routes.subscription}><SignedIn><SubscriptionPage /></SignedIn></Route>
                  <Route path={routes.redeemVoucher}><SignedIn><RedeemVoucherPage /></SignedIn></Route>
                  <Route path={routes.changePlan}><SignedIn><ChangePlanPage /></SignedIn></Route>
                  <Route path={routes.changePaymentMethod}><SignedIn><ChangePaymentMethodPage /></SignedIn></Route>
                  <Route path={routes.subscribe}><SignedIn><SubscribePage /></SignedIn></Route>
                  <Route path={routes.receipt}><SignedIn><ReceiptPage /></SignedIn></Route>
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
        </Router>
        <Toasts />
      </FlowOverridesContext.Provider>
    </ServicesContext.Provider>
  );
}
