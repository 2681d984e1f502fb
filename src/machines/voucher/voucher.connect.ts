/** Redeem voucher's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import { textOf } from '../shared';
import type { VoucherEvent, VoucherMachine } from './voucher.machine';

export function connectVoucher(state: SnapshotFrom<VoucherMachine>, send: (event: VoucherEvent) => void) {
  return {
    // The form's own check, or the server's refusal: both shown at the field (the toast fades after 4 s).
    fieldError: state.context.fieldError ? textOf(state.context.fieldError) : (state.matches({ form: 'rejected' }) ? state.context.serverMessage : null),
    redeeming: state.matches('redeeming'),
    onSubmit: (code: string) => send({ type: 'form.submit', code }),
  };
}
