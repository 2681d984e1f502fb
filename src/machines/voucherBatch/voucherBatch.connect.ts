/** The mint form's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import { textOf } from '../shared';
import type { VoucherBatchEvent, VoucherBatchMachine, VoucherBatchValues } from './voucherBatch.machine';

export function connectVoucherBatch(state: SnapshotFrom<VoucherBatchMachine>, send: (event: VoucherBatchEvent) => void) {
  const errors = state.context.fieldErrors;
  return {
    values: state.context.values,
    minting: state.matches('minting') || state.matches('minted'),
    fieldErrors: Object.fromEntries(Object.entries(errors).map(([key, text]) => [key, text ? textOf(text) : undefined])) as Partial<Record<keyof VoucherBatchValues, string>>,
    serverMessage: state.matches({ form: 'rejected' }) ? state.context.serverMessage : null,
    onSubmit: (values: VoucherBatchValues) => send({ type: 'form.submit', values }),
  };
}
