/**
 * The one route table (product.md#routes): each route's path (a wouter pattern), its titles, its guard
 * and its page. The router (App.tsx), the document titles and route changes (routeChange.ts) and the
 * build's prerender list (entry-prerender.tsx) all read it; a route added here is routed, titled and,
 * if `prerender` says so, painted before JavaScript.
 */
import type { ComponentType } from 'react';
import { m } from '../i18n';
import { PRODUCT_NAME } from '../lib/product';
import { routes } from '../lib/route-paths';
// The address modules themselves, not the flows' index (that would bring the charts into the landing chunk).
import { recoveryRoute, signUpRoute } from '../lib/flow-routes';
import { lazyPage } from './lazyPage';
import LandingPage from './pages/LandingPage';

/**
 * Who may see a route (product.md#guards): anyone; guests only (a signed-in viewer goes to /);
 * signed-in viewers only (a guest goes to /login?from=); or anyone, with the signed-in viewer's data
 * read through the signed-in group's queries (the payment result a viewer comes back to from Maya).
 */
export type RouteGuard = 'public' | 'guest' | 'signedIn' | 'publicWithAccount';

export interface AppRoute {
  /** The pattern wouter matches: a path, a path with a parameter, or a flow's paths. */
  path: string | RegExp;
  /** The page's title (a message, in the language in use); a flow with several addresses names each (`titles`, by exact path). */
  title: () => string;
  titles?: Readonly<Record<string, () => string>>;
  guard: RouteGuard;
  page: ComponentType;
  /** Prerendered at build time (a public route a guest sees): the page's source, whose chunk it needs. */
  prerender?: { path: string; source: string | null };
}

// Every route but the landing page is its own chunk, so later pages never grow the landing page.
export const ROUTE_TABLE: readonly AppRoute[] = [
  { path: routes.home, title: () => PRODUCT_NAME, guard: 'public', page: LandingPage, prerender: { path: routes.home, source: null } },
  { path: routes.payment, title: m.payment_result, guard: 'publicWithAccount', page: lazyPage(() => import('./pages/PaymentResultPage')) },
  {
    path: routes.terms, title: m.terms_and_conditions, guard: 'public', page: lazyPage(() => import('./pages/TermsPage')),
    prerender: { path: routes.terms, source: 'src/views/pages/TermsPage.tsx' },
  },
  {
    path: routes.privacy, title: m.privacy_policy, guard: 'public', page: lazyPage(() => import('./pages/PrivacyPage')),
    prerender: { path: routes.privacy, source: 'src/views/pages/PrivacyPage.tsx' },
  },
  {
    path: routes.login, title: m.log_in, guard: 'guest', page: lazyPage(() => import('./pages/LoginPage')),
    prerender: { path: routes.login, source: 'src/views/pages/LoginPage.tsx' },
  },
  // One route per flow, so its machine lives on while the URL moves between its steps.
  {
    path: signUpRoute, title: m.sign_up, titles: { [routes.registerVerify]: m.verify_email },
    guard: 'guest', page: lazyPage(() => import('./pages/RegisterPage')),
    prerender: { path: routes.register, source: 'src/views/pages/RegisterPage.tsx' },
  },
  {
    path: recoveryRoute, title: m.forgot_password,
    titles: { [routes.forgotPasswordVerify]: m.enter_otp, [routes.forgotPasswordReset]: m.reset_password },
    guard: 'guest', page: lazyPage(() => import('./pages/RecoveryPage')),
    prerender: { path: routes.forgotPassword, source: 'src/views/pages/RecoveryPage.tsx' },
  },
  // A login link signs in whoever it names, even over another session (the mobile app sends it).
  { path: routes.authLink, title: m.signing_in, guard: 'public', page: lazyPage(() => import('./pages/AuthLinkPage')) },
  // Issue 36: opened from a mail, signed in or not (every session ends when it works).
  { path: routes.emailUndo, title: m.undo_email_change, guard: 'public', page: lazyPage(() => import('./pages/EmailUndoPage')) },
  { path: routes.account, title: m.account, guard: 'signedIn', page: lazyPage(() => import('./pages/AccountPage')) },
  { path: routes.subscription, title: m.subscription, guard: 'signedIn', page: lazyPage(() => import('./pages/SubscriptionPage')) },
  { path: routes.redeemVoucher, title: m.redeem_voucher, guard: 'signedIn', page: lazyPage(() => import('./pages/RedeemVoucherPage')) },
  { path: routes.changePlan, title: m.change_plan, guard: 'signedIn', page: lazyPage(() => import('./pages/ChangePlanPage')) },
  { path: routes.changePaymentMethod, title: m.change_payment_method, guard: 'signedIn', page: lazyPage(() => import('./pages/ChangePaymentMethodPage')) },
  { path: routes.subscribe, title: m.subscribe, guard: 'signedIn', page: lazyPage(() => import('./pages/SubscribePage')) },
  { path: routes.receipt, title: m.receipt, guard: 'signedIn', page: lazyPage(() => import('./pages/ReceiptPage')) },
  { path: routes.invoice, title: m.invoice, guard: 'signedIn', page: lazyPage(() => import('./pages/InvoicePage')) },
  // The back office (issue 35): one lazy page for every /ops address, its own door (a viewer gets the 404
  // page and its title, never a hint; the console names its own pages), so its code loads only when opened.
  { path: /^\/ops(\/.*)?$/, title: m.page_not_found, guard: 'public', page: lazyPage(() => import('./pages/OpsPage')) },
];

export const NOT_FOUND_TITLE = m.page_not_found;
export const NotFoundPage = lazyPage(() => import('./pages/NotFoundPage'));

/** Does a route's pattern match a path (a parameter such as `:id` matches one segment)? */
function matches(route: AppRoute, path: string): boolean {
  if (route.path instanceof RegExp) return route.path.test(path);
  if (!route.path.includes(':')) return route.path === path;
  const segments = route.path.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`).test(path);
}

/** The route a path shows, if any. */
export function routeFor(path: string): AppRoute | undefined {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return ROUTE_TABLE.find((route) => matches(route, normalized));
}

/** The document title of a path: the route's (or its step's) title, with the product's name. */
export function documentTitleFor(path: string): string {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const route = routeFor(normalized);
  const title = (route ? (route.titles?.[normalized] ?? route.title) : NOT_FOUND_TITLE)();
  return title === PRODUCT_NAME ? PRODUCT_NAME : `${title} · ${PRODUCT_NAME}`;
}

/** The routes prerendered at build time (issue 10), with the lazy page whose CSS and JS each needs. */
export const PRERENDERED_ROUTES = ROUTE_TABLE.flatMap((route) => (route.prerender ? [{ path: route.prerender.path, page: route.prerender.source }] : []));
