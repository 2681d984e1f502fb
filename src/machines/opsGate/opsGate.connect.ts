/** The back office door's view props (zag's connect): which face the gate shows and what it needs. */
import type { SnapshotFrom } from 'xstate';
import { textOf } from '../shared';
import type { OpsGateEvent, OpsGateMachine } from './opsGate.machine';

export type OpsGateFace = 'loading' | 'signInNeeded' | 'notOperator' | 'checkFailed' | 'enrolStarting' | 'enrolStartFailed' | 'enrol' | 'recoveryCodes' | 'verify' | 'ready';

function faceOf(state: SnapshotFrom<OpsGateMachine>): OpsGateFace {
  if (state.matches('signInNeeded')) return 'signInNeeded';
  if (state.matches('notOperator')) return 'notOperator';
  if (state.matches('checkFailed')) return 'checkFailed';
  if (state.matches({ enrolling: 'starting' })) return 'enrolStarting';
  if (state.matches({ enrolling: 'startFailed' })) return 'enrolStartFailed';
  if (state.matches({ enrolling: 'recoveryCodes' })) return 'recoveryCodes';
  if (state.matches('enrolling')) return 'enrol';
  if (state.matches('verifying')) return 'verify';
  if (state.matches('ready') || state.matches('ending')) return 'ready';
  return 'loading';
}

export function connectOpsGate(state: SnapshotFrom<OpsGateMachine>, send: (event: OpsGateEvent) => void) {
  const face = faceOf(state);
  const { context } = state;
  return {
    face,
    /** The console's pages stay mounted (hidden) while a code is asked again, so nothing typed is lost. */
    keepPage: face === 'ready' || (face === 'verify' && context.resumed),
    resumed: context.resumed,
    operator: context.session?.operator ?? (context.me ? { email: context.me.email, name: context.me.name, role: context.me.role } : null),
    opsToken: context.session?.opsToken ?? null,
    enrolment: context.enrolment,
    recoveryCodes: context.recoveryCodes,
    submitting: state.matches({ enrolling: 'confirming' }) || state.matches({ verifying: 'submitting' }),
    ending: state.matches('ending'),
    code: context.code,
    fieldError: context.fieldError ? textOf(context.fieldError) : null,
    serverMessage: context.serverMessage,
    onSubmitCode: (code: string) => send({ type: 'code.submit', code }),
    onCodesSaved: () => send({ type: 'codes.saved' }),
    onRetryCheck: () => send({ type: 'check.retry' }),
    onRetryEnrol: () => send({ type: 'enrol.retry' }),
    onExpired: () => send({ type: 'session.expired' }),
    onSignOut: () => send({ type: 'session.end' }),
  };
}
