/** Implementations of the actions machines leave to views, in one place. */
import type { ActorRefFrom } from 'xstate';
import type { AuthResult } from '../../api/schemas';
import type { SessionMachine } from '../../machines/session.machine';
import type { Notify } from '../../machines/shared';
import { notify } from '../Toasts';

export const notifyAction = (_: unknown, params: Notify) => void notify(params.kind, params.message);

export function startSessionAction(session: ActorRefFrom<SessionMachine>) {
  return (_: unknown, { result }: { result: AuthResult }) =>
    session.send({ type: 'session.login', accessToken: result.accessToken, user: result.user });
}
