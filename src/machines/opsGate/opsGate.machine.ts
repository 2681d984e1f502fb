/**
 * The back office's door (issue 35, product.md#ops-console): who may use /ops. The viewer's own sign-in
 * comes first (a guest goes to /login and comes back); then `GET /ops/me` says whether this account is
 * an operator (anyone else sees the app's normal 404 page, never a hint); an operator not yet enrolled
 * scans a QR (or types the secret), confirms a code and sees the recovery codes once; an enrolled one
 * types a code from the app (or a recovery code). An ops session that expires or is revoked (any ops
 * call answering 401) asks for a code again on the same page, with the page kept underneath.
 */
import { assign, setup } from 'xstate';
import { ApiError } from '../../api/http';
import { m } from '../../i18n';
import { placeholder } from '../actors';
import { errorMessageOf, formStates, type Text } from '../shared';

import type { EnrolConfirmResult, EnrolStart, OpsMe, OpsSession } from '../../api/ops/schemas';

export type { OpsMe, OpsSession } from '../../api/ops/schemas';
type OpsEnrolment = EnrolStart;
type OpsEnrolled = EnrolConfirmResult;

export interface OpsGateInput {
  /** Is a viewer signed in (the normal session)? The gate starts once the session has loaded. */
  signedIn: boolean;
  /** An ops session kept in this tab (sessionStorage), if any. */
  stored: OpsSession | null;
}

export interface OpsGateContext {
  signedIn: boolean;
  me: OpsMe | null;
  session: OpsSession | null;
  enrolment: OpsEnrolment | null;
  recoveryCodes: string[];
  /** The code the person typed (kept while a call runs, cleared once it is used). */
  code: string;
  fieldError: Text | null;
  serverMessage: string | null;
  /** The console was open before a code was asked again: the page underneath is kept. */
  resumed: boolean;
}

export type OpsGateEvent =
  | { type: 'code.submit'; code: string }
  | { type: 'codes.saved' }
  | { type: 'check.retry' }
  | { type: 'enrol.retry' }
  | { type: 'session.expired' }
  | { type: 'session.end' };

/** A six-digit code from the authenticator app. */
export const TOTP_CODE = /^\d{6}$/;
/** A recovery code, `xxxx-xxxx`. */
export const RECOVERY_CODE = /^[a-z0-9]{4}-[a-z0-9]{4}$/i;

export const normalizeCode = (code: string) => code.replace(/\s+/g, '');

export const opsGateMachine = setup({
  types: {
    context: {} as OpsGateContext,
    events: {} as OpsGateEvent,
    input: {} as OpsGateInput,
  },
  actors: {
    loadMe: placeholder<OpsMe, void>('loadMe'),
    startEnrol: placeholder<OpsEnrolment, void>('startEnrol'),
    confirmEnrol: placeholder<OpsEnrolled, { code: string }>('confirmEnrol'),
    openSession: placeholder<OpsSession, { code: string }>('openSession'),
    endSession: placeholder<unknown, void>('endSession'),
  },
  guards: {
    isSignedIn: ({ context }) => context.signedIn,
    // Guards of an invoke's done and error events (xstate types a guard by the machine's own events).
    isNotOperator: ({ event }) => {
      const error = (event as unknown as { error?: unknown }).error;
      return error instanceof ApiError && error.status === 404;
    },
    isEnrolled: ({ event }) => (event as unknown as { output: OpsMe }).output.enrolled,
    // Only this operator's own session: a tab where another account signed in before keeps nothing of theirs.
    hasOwnStoredSession: ({ context }) => context.session !== null && context.session.operator.email === context.me?.email,
    isTotpCode: ({ event }) => event.type === 'code.submit' && TOTP_CODE.test(normalizeCode(event.code)),
    isTotpOrRecoveryCode: ({ event }) =>
      event.type === 'code.submit' && (TOTP_CODE.test(normalizeCode(event.code)) || RECOVERY_CODE.test(normalizeCode(event.code))),
  },
  actions: {
    assignMe: assign((_, params: { me: OpsMe }) => ({ me: params.me, serverMessage: null })),
    assignEnrolment: assign((_, params: { enrolment: OpsEnrolment }) => ({ enrolment: params.enrolment, serverMessage: null })),
    assignEnrolled: assign((_, params: { enrolled: OpsEnrolled }) => ({
      recoveryCodes: params.enrolled.recoveryCodes, session: params.enrolled.session, enrolment: null, code: '',
    })),
    assignSession: assign((_, params: { session: OpsSession }) => ({ session: params.session, code: '', serverMessage: null })),
    assignCode: assign(({ event }) => ({ code: event.type === 'code.submit' ? normalizeCode(event.code) : '', fieldError: null, serverMessage: null })),
    assignCodeError: assign(({ event }) => ({
      code: event.type === 'code.submit' ? event.code : '',
      fieldError: event.type === 'code.submit' && !event.code.trim() ? m.ops_code_required : m.ops_code_format,
      serverMessage: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    forgetRecoveryCodes: assign({ recoveryCodes: [] }),
    forgetSession: assign({ session: null }),
    markResumed: assign({ resumed: true, code: '', fieldError: null, serverMessage: null }),
    clearResumed: assign({ resumed: false }),
    /** The view keeps the ops session in sessionStorage (never localStorage) and forgets it here. */
    storeSession: (_, _params: { session: OpsSession | null }) => {},
    goToLogin: () => {},
  },
}).createMachine({
  id: 'opsGate',
  description:
    'Every /ops page starts here: a guest goes to /login and comes back; a viewer who is not an operator sees the normal 404 page; an operator enrols a second factor once (QR, confirm code, recovery codes shown once) or types a code, then the console opens. An expired ops session asks for a code again with the page kept.',
  meta: {
    title: 'Back office sign-in',
    events: {
      'code.submit': 'The operator types a code and presses Verify',
      'codes.saved': 'The operator presses I saved them',
      'check.retry': 'The operator presses Try again after the check failed',
      'enrol.retry': 'The operator presses Try again after enrolment could not start',
      'session.expired': 'An ops call answered 401 (the ops session expired or was revoked)',
      'session.end': 'The operator presses Sign out of the back office',
    },
  },
  context: ({ input }) => ({
    signedIn: input.signedIn,
    me: null,
    session: input.stored,
    enrolment: null,
    recoveryCodes: [],
    code: '',
    fieldError: null,
    serverMessage: null,
    resumed: false,
  }),
  initial: 'start',
  states: {
    start: {
      description: 'Is a viewer signed in?',
      always: [{ guard: 'isSignedIn', target: 'checking' }, { target: 'signInNeeded' }],
    },
    signInNeeded: {
      description: 'No viewer session: the normal /login, then back to this page; any ops session of this tab is forgotten',
      meta: { screen: '/login?from=/ops' },
      entry: ['forgetSession', { type: 'storeSession', params: { session: null } }, 'goToLogin'],
    },
    checking: {
      description: 'Asking whether this account is an operator (GET /ops/me)',
      invoke: {
        id: 'loadMe',
        src: 'loadMe',
        onDone: [
          {
            guard: 'isEnrolled',
            target: 'enrolledCheck',
            actions: { type: 'assignMe', params: ({ event }) => ({ me: event.output }) },
          },
          { target: 'enrolling', actions: { type: 'assignMe', params: ({ event }) => ({ me: event.output }) } },
        ],
        onError: [
          { guard: 'isNotOperator', target: 'notOperator' },
          { target: 'checkFailed', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
        ],
      },
    },
    enrolledCheck: {
      description: 'An enrolled operator: their own ops session kept in this tab opens the console at once',
      always: [
        { guard: 'hasOwnStoredSession', target: 'ready' },
        { target: 'verifying', actions: ['forgetSession', { type: 'storeSession', params: { session: null } }] },
      ],
    },
    checkFailed: {
      description: 'The check could not be made (network, server): the message and Try again',
      on: { 'check.retry': 'checking' },
    },
    notOperator: {
      description: 'Not an operator: the normal 404 page, exactly as for an unknown address',
      type: 'final',
    },
    enrolling: {
      description: 'First sign-in of an operator: set up the authenticator app',
      initial: 'starting',
      states: {
        starting: {
          description: 'Asking for a new secret (POST /ops/enrol)',
          invoke: {
            id: 'startEnrol',
            src: 'startEnrol',
            onDone: { target: 'form', actions: { type: 'assignEnrolment', params: ({ event }) => ({ enrolment: event.output }) } },
            onError: { target: 'startFailed', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
        },
        startFailed: {
          description: 'Enrolment could not start: the message and Try again',
          on: { 'enrol.retry': 'starting' },
        },
        form: {
          ...formStates,
          description: 'The QR code, the secret as text and the confirm code field',
          on: {
            'code.submit': [
              { guard: 'isTotpCode', target: 'confirming', actions: 'assignCode' },
              { target: '.invalid', actions: 'assignCodeError' },
            ],
          },
        },
        confirming: {
          description: 'Checking the first code (POST /ops/enrol/confirm)',
          invoke: {
            id: 'confirmEnrol',
            src: 'confirmEnrol',
            input: ({ context }) => ({ code: context.code }),
            onDone: {
              target: 'recoveryCodes',
              actions: [
                { type: 'assignEnrolled', params: ({ event }) => ({ enrolled: event.output }) },
                { type: 'storeSession', params: ({ event }) => ({ session: event.output.session }) },
              ],
            },
            onError: { target: 'form.rejected', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
        },
        recoveryCodes: {
          description: 'The ten recovery codes, shown this once, until the operator says they saved them',
          on: { 'codes.saved': { target: '#opsGate.ready', actions: 'forgetRecoveryCodes' } },
        },
      },
    },
    verifying: {
      description: 'An enrolled operator types a code from the app or a recovery code',
      initial: 'form',
      states: {
        form: {
          ...formStates,
          description: 'The code field',
          on: {
            'code.submit': [
              { guard: 'isTotpOrRecoveryCode', target: 'submitting', actions: 'assignCode' },
              { target: '.invalid', actions: 'assignCodeError' },
            ],
          },
        },
        submitting: {
          description: 'Opening an ops session (POST /ops/session)',
          invoke: {
            id: 'openSession',
            src: 'openSession',
            input: ({ context }) => ({ code: context.code }),
            onDone: {
              target: '#opsGate.ready',
              actions: [
                { type: 'assignSession', params: ({ event }) => ({ session: event.output }) },
                { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
              ],
            },
            onError: { target: 'form.rejected', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
          },
        },
      },
    },
    ready: {
      description: 'The console is open',
      exit: 'clearResumed',
      on: {
        'session.expired': {
          target: 'verifying',
          actions: ['forgetSession', { type: 'storeSession', params: { session: null } }, 'markResumed'],
        },
        'session.end': 'ending',
      },
    },
    ending: {
      description: 'Ending the ops session (POST /ops/session/end); whatever the answer, the token is forgotten',
      invoke: {
        id: 'endSession',
        src: 'endSession',
        onDone: { target: 'verifying', actions: ['forgetSession', { type: 'storeSession', params: { session: null } }] },
        onError: { target: 'verifying', actions: ['forgetSession', { type: 'storeSession', params: { session: null } }] },
      },
    },
  },
});

export type OpsGateMachine = typeof opsGateMachine;
