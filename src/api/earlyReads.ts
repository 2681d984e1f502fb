/**
 * What a signed-in page reads first (issue 21): the build writes this into the boot script (scripts/build/
 * prerender.ts), which, when the stored session allows, starts these reads and preloads the page's code as
 * the document arrives, in parallel with the app's own JavaScript instead of after it. The app's HTTP layer
 * (http.ts) takes each answer the first time it asks for that address with the same token. Not shipped in
 * the app itself: only the build reads this module.
 */
import { routes } from '../lib/route-paths';
import { V1 } from './endpoints';

export interface EarlyRoute {
  path: string;
  /** The page's source, whose chunk (and the signed-in group's) the boot script preloads. */
  page: string;
  /** The API addresses (GET, with the stored token) the page reads on arrival. */
  reads: string[];
}

const status = `${V1}/subscription/status`;

export const EARLY_ROUTES: EarlyRoute[] = [
  { path: routes.subscription, page: 'src/views/pages/SubscriptionPage.tsx', reads: [status, `${V1}/subscription/history`, `${V1}/payment/history`] },
  { path: routes.account, page: 'src/views/pages/AccountPage.tsx', reads: [`${V1}/account/profile`] },
  { path: routes.changePlan, page: 'src/views/pages/ChangePlanPage.tsx', reads: [status, `${V1}/subscription/plans?type=PREMIUM&isActive=true`] },
  { path: routes.changePaymentMethod, page: 'src/views/pages/ChangePaymentMethodPage.tsx', reads: [status] },
];
