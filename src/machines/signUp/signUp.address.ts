/**
 * The sign-up flow's address (product.md#sign-up-code: /register, /register/verify?q={verificationToken}&email={email}):
 * one module reads and writes it, for the machine, the view, the route pattern and the tests.
 */
import { routes } from '../../lib/route-paths';

export { signUpPaths, signUpRoute } from '../../lib/flow-routes';

export interface SignUpLocation {
  step: 'register' | 'verify';
  verificationToken: string | null;
  /** On /register, the address typed on the landing page; on the code step, where the code went. */
  email: string | null;
}


export function parse(path: string, search: string): SignUpLocation {
  const params = new URLSearchParams(search);
  const verify = path.replace(/\/$/, '') === routes.registerVerify;
  return { step: verify ? 'verify' : 'register', verificationToken: verify ? params.get('q') : null, email: params.get('email') };
}

export function format(location: SignUpLocation): string {
  const params = new URLSearchParams();
  if (location.step === 'verify' && location.verificationToken) params.set('q', location.verificationToken);
  if (location.email) params.set('email', location.email);
  const query = params.toString();
  return `${location.step === 'verify' ? routes.registerVerify : routes.register}${query ? `?${query}` : ''}`;
}
