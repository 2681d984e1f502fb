/** Implementations of the actions machines leave to views, in one place. */
import type { ActorRefFrom } from 'xstate';
import type { SessionMachine } from '../../machines/session/session.machine';
import { textOf, type Navigation, type Notify, type StartSession } from '../../machines/shared';
import { keepFocusFor } from '../routeFocus';
import { notify } from '../Toasts';

/** A toast on its own. */
export const notifyAction = (_: unknown, params: Notify) => void notify(params.kind, textOf(params.message));

/** A flow's toasts: each replaces the flow's previous one, so a flow leaves one toast (issue 6, 5b). */
export function notifyFor(flow: string) {
  return (_: unknown, params: Notify) => void notify(params.kind, textOf(params.message), flow);
}

export function startSessionAction(session: ActorRefFrom<SessionMachine>) {
  return (_: unknown, { result }: StartSession) =>
    session.send({ type: 'session.login', accessToken: result.accessToken, user: result.user });
}

/**
 * Binds a flow's `goTo` to the router. An address written in place (`replace`) on the same page is a
 * correction or a choice, not a new page: focus and scroll stay (routeChange.ts).
 */
export function goToAction(navigate: (path: string, options: { replace: boolean; state?: unknown }) => void) {
  return (_: unknown, { path, replace, state }: Navigation) => {
    if (replace) keepFocusFor(path);
    navigate(path, state === undefined ? { replace: replace ?? false } : { replace: replace ?? false, state });
  };
}
