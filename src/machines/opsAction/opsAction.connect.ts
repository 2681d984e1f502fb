/** A back office action's view props (zag's connect): which step, the texts, the handlers. */
import type { SnapshotFrom } from 'xstate';
import { textOf } from '../shared';
import { actionTitle, confirmationOf } from './opsAction.format';
import type { OpsActionEvent, OpsActionMachine, OpsActionTarget, OpsActionValues } from './opsAction.machine';

export type OpsActionStep = 'idle' | 'reason' | 'confirm' | 'submitting' | 'done' | 'failed';

function stepOf(state: SnapshotFrom<OpsActionMachine>): OpsActionStep {
  if (state.matches('reason')) return 'reason';
  if (state.matches('confirming')) return 'confirm';
  if (state.matches('submitting')) return 'submitting';
  if (state.matches('done')) return 'done';
  if (state.matches('failed')) return 'failed';
  return 'idle';
}

export function connectOpsAction(state: SnapshotFrom<OpsActionMachine>, send: (event: OpsActionEvent) => void) {
  const { target, values, fieldErrors } = state.context;
  const step = stepOf(state);
  return {
    step,
    target,
    values,
    title: target ? actionTitle(target) : '',
    confirmation: target ? confirmationOf(target, values) : '',
    fieldErrors: {
      reason: fieldErrors.reason ? textOf(fieldErrors.reason) : undefined,
      amount: fieldErrors.amount ? textOf(fieldErrors.amount) : undefined,
      days: fieldErrors.days ? textOf(fieldErrors.days) : undefined,
    },
    serverMessage: step === 'failed' ? state.context.serverMessage : null,
    result: state.context.result ? textOf(state.context.result) : null,
    requestKey: state.context.requestKey,
    onChoose: (chosen: OpsActionTarget) => send({ type: 'action.choose', target: chosen }),
    onSubmit: (typed: OpsActionValues) => send({ type: 'form.submit', values: typed }),
    onConfirm: () => send({ type: 'confirm.accept' }),
    onBack: () => send({ type: 'confirm.back' }),
    onClose: () => send({ type: 'action.close' }),
  };
}
