/**
 * The back office (issue 35, product.md#ops-console): every /ops address is this one lazy page, so its
 * code loads only when someone opens /ops and never grows a viewer's route. The door (opsGate) decides
 * what shows: the normal 404 page for anyone who is not an operator, enrolment or a code for an
 * operator, then the console. An ops call answering 401 asks for a code again with the page kept
 * (hidden, still mounted) underneath, so nothing typed is lost.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { m } from '../../i18n';
import { loginPathFor } from '../../lib/route-paths';
import { connectOpsGate, createOpsConsole, opsGateMachine } from '../../machines/opsGate';
import { connectSession } from '../../machines/session';
import { ConsoleRoutes } from '../ops/ConsoleRoutes';
import { EnrolView, GateProblem, RecoveryCodesView, VerifyView } from '../ops/GateViews';
import { OpsContext } from '../ops/opsContext';
import { readOpsSession, writeOpsSession } from '../ops/opsSessionStore';
import { focusFromScript } from '../focusFromScript';
import { useServices } from '../services';
import { useConnect, useFlow } from '../useFlow';
import NotFoundPage from './NotFoundPage';

function Loading() {
  return <p role="status" className="visually-hidden">{m.loading()}</p>;
}

/**
 * The door's faces change on one address (enrol, recovery codes, verify, the console): each new face
 * takes focus to its heading, as a route change does (routeChange.ts), so keyboard and screen reader start there.
 */
function useFocusOnFaceChange(face: string) {
  const previous = useRef(face);
  useEffect(() => {
    const before = previous.current;
    previous.current = face;
    // The first face after loading is the visit's first page: the browser's own start stays (as routeChange.ts).
    if (before === face || before === 'loading' || before === 'enrolStarting') return;
    const heading = [...document.querySelectorAll<HTMLElement>('#main h1, h1')].find((h) => h.getClientRects().length > 0);
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    focusFromScript(heading, { preventScroll: true });
  }, [face]);
}

function OpsGate({ signedIn }: { signedIn: boolean }) {
  const { session } = useServices();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const [stored] = useState(readOpsSession);
  const [ops] = useState(() => createOpsConsole(session, { host: import.meta.env.VITE_API_HOST ?? '', opsToken: stored?.opsToken ?? null }));
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  const actor = useFlow(opsGateMachine, {
    input: { signedIn, stored },
    actors: ops.actors,
    actions: {
      storeSession: (_, { session: opened }) => {
        ops.setOpsToken(opened?.opsToken ?? null);
        writeOpsSession(opened);
        if (!opened) queryClient.clear();
      },
      goToLogin: () => navigate(loginPathFor(search ? `${path}?${search}` : path), { replace: true }),
    },
  });
  // Any ops call answering 401 (expired or revoked) asks for a code again, the page kept underneath.
  useEffect(() => ops.onOpsExpired(() => actor.send({ type: 'session.expired' })), [ops, actor]);
  const view = useConnect(actor, connectOpsGate);
  useFocusOnFaceChange(view.face);

  const codeProps = {
    submitting: view.submitting, code: view.code, fieldError: view.fieldError, serverMessage: view.serverMessage, onSubmit: view.onSubmitCode,
  };
  switch (view.face) {
    case 'notOperator': return <NotFoundPage />;
    case 'checkFailed': return <GateProblem message={view.serverMessage} onRetry={view.onRetryCheck} />;
    case 'enrolStartFailed': return <GateProblem message={view.serverMessage} onRetry={view.onRetryEnrol} />;
    case 'enrol': return <EnrolView {...codeProps} enrolment={view.enrolment} />;
    case 'recoveryCodes': return <RecoveryCodesView codes={view.recoveryCodes} onSaved={view.onCodesSaved} />;
    case 'verify':
    case 'ready':
      return (
        <>
          {view.face === 'verify' && <VerifyView {...codeProps} resumed={view.resumed} />}
          {view.keepPage && view.operator && (
            <div hidden={view.face !== 'ready'}>
              <OpsContext.Provider value={{ api: ops.api, operator: view.operator }}>
                <QueryClientProvider client={queryClient}>
                  <ConsoleRoutes operator={view.operator} onSignOut={view.onSignOut} signingOut={view.ending} />
                </QueryClientProvider>
              </OpsContext.Provider>
            </div>
          )}
        </>
      );
    default: return <Loading />;
  }
}

export default function OpsPage() {
  const { session } = useServices();
  const status = useConnect(session, connectSession).status;
  if (status === 'loading') return <Loading />;
  // A sign-in or sign-out while here starts the door again.
  return <OpsGate key={status} signedIn={status === 'signedIn'} />;
}
