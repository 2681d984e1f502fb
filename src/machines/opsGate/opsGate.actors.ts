/**
 * The back office's API and the door's actors, from one factory (conventions: one factory per area).
 * Entry calls carry the viewer's token; every other call the ops token, which lives here (in memory;
 * the view keeps a copy in sessionStorage). A 401 on an ops call tells whoever listens (the door).
 */
import { fromPromise, type ActorRefFrom } from 'xstate';
import { createOpsApi } from '../../api/ops/endpoints';
import type { EnrolConfirmResult, EnrolStart, OpsMe, OpsSession } from '../../api/ops/schemas';
import type { SessionMachine } from '../session/session.machine';

export function createOpsConsole(session: ActorRefFrom<SessionMachine>, options: { host: string; opsToken: string | null; fetch?: typeof fetch }) {
  let opsToken = options.opsToken;
  let onExpired: () => void = () => {};
  const api = createOpsApi({
    host: options.host,
    fetch: options.fetch,
    getViewerToken: () => session.getSnapshot().context.token,
    getOpsToken: () => opsToken,
    onViewerUnauthorized: () => session.send({ type: 'session.unauthorized' }),
    onOpsUnauthorized: () => onExpired(),
  });
  return {
    api,
    setOpsToken: (token: string | null) => {
      opsToken = token;
    },
    /** Who hears that the ops session is over (the door asks for a code again). */
    onOpsExpired: (handler: () => void) => {
      onExpired = handler;
      return () => {
        onExpired = () => {};
      };
    },
    actors: {
      loadMe: fromPromise<OpsMe, void>(({ signal }) => api.me(undefined, signal)),
      startEnrol: fromPromise<EnrolStart, void>(({ signal }) => api.enrol(undefined, signal)),
      confirmEnrol: fromPromise<EnrolConfirmResult, { code: string }>(({ input, signal }) => api.confirmEnrol(input, signal)),
      openSession: fromPromise<OpsSession, { code: string }>(({ input, signal }) => api.startSession(input, signal).then((result) => result.session)),
      endSession: fromPromise<unknown, void>(({ signal }) => api.endSession(undefined, signal)),
    },
  };
}

export type OpsConsole = ReturnType<typeof createOpsConsole>;
