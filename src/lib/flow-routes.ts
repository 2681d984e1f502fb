/**
 * The route patterns of the flows that own several addresses (sign-up, recovery), apart from their
 * address modules (src/machines/*\/*.address.ts): the route table, which the landing loads, needs only
 * these, and the rest of each address module then loads with its page (bundle budget).
 */
import { routePattern } from './route-pattern';
import { routes } from './route-paths';

export const signUpPaths = [routes.register, routes.registerVerify] as const;
export const signUpRoute = routePattern(signUpPaths);

export const recoveryPaths = [routes.forgotPassword, routes.forgotPasswordVerify, routes.forgotPasswordReset] as const;
export const recoveryRoute = routePattern(recoveryPaths);
