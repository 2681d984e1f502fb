/** Login-link verification (/auth?token=&redirectUrl=). */
import { Link, useLocation, useSearch } from 'wouter';
import { createAuthActors } from '../../machines/actors';
import { connectLoginLink, loginLinkMachine } from '../../machines/loginLink';
import { routes, safeRedirectPath } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button, card, centered, heading, narrowPage } from '../../styles/ui.css';
import { goToAction, startSessionAction } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { useServices } from '../services';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';

/** A redirectUrl may be a path or an address on this site; anything else falls back to /subscription. */
export function redirectTarget(redirectUrl: string | null, origin: string): string {
  if (!redirectUrl) return routes.subscription;
  try {
    const url = new URL(redirectUrl, origin);
    if (url.origin !== origin) return routes.subscription;
    return safeRedirectPath(`${url.pathname}${url.search}${url.hash}`, routes.subscription);
  } catch {
    return routes.subscription;
  }
}

export default function AuthLinkPage() {
  const { session } = useServices();
  const api = useApi();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const actor = useFlow(loginLinkMachine, {
    actors: createAuthActors(api),
    actions: {
      startSession: startSessionAction(session),
      goTo: goToAction(navigate),
    },
    input: { token: params.get('token'), redirectTo: redirectTarget(params.get('redirectUrl'), window.location.origin) },
  });
  const { failed, message } = useConnect(actor, connectLoginLink);
  return (
    <div className={narrowPage}>
      <div className={`${card} ${centered}`}>
        {failed ? (
          <>
            <h1 className={heading}>{m.we_could_not_sign_you_in()}</h1>
            <ErrorBox message={message} />
            <p><Link href={routes.home} className={button.primary}>{m.go_to_homepage()}</Link></p>
          </>
        ) : (
          <p role="status" aria-live="polite">{m.signing_you_in()}</p>
        )}
      </div>
    </div>
  );
}
