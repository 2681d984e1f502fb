/**
 * The recovery flow's address (product.md#recovery): /forgot-password → /forgot-password/verify?q={verifyToken}&email=
 * → /forgot-password/reset?q={resetToken}. One module reads and writes it, for the machine, the view,
 * the route pattern and the tests.
 */
import { routes } from '../../lib/route-paths';

export { recoveryPaths, recoveryRoute } from '../../lib/flow-routes';

export type RecoveryStep = 'request' | 'verify' | 'reset';

export interface RecoveryLocation {
  step: RecoveryStep;
  /** q on the verify step */
  verifyToken: string | null;
  email: string | null;
  /** q on the reset step */
  resetToken: string | null;
}

const pathOf: Record<RecoveryStep, string> = {
  request: routes.forgotPassword,
  verify: routes.forgotPasswordVerify,
  reset: routes.forgotPasswordReset,
};


export function parse(path: string, search: string): RecoveryLocation {
  const params = new URLSearchParams(search);
  const bare = path.replace(/\/$/, '');
  const step = (Object.keys(pathOf) as RecoveryStep[]).find((key) => pathOf[key] === bare) ?? 'request';
  return {
    step,
    verifyToken: step === 'verify' ? params.get('q') : null,
    email: step === 'reset' ? null : params.get('email'),
    resetToken: step === 'reset' ? params.get('q') : null,
  };
}

export function format(location: RecoveryLocation): string {
  const params = new URLSearchParams();
  if (location.step === 'verify') {
    if (location.verifyToken) params.set('q', location.verifyToken);
    if (location.email) params.set('email', location.email);
  }
  if (location.step === 'reset' && location.resetToken) params.set('q', location.resetToken);
  const query = params.toString();
  return `${pathOf[location.step]}${query ? `?${query}` : ''}`;
}
