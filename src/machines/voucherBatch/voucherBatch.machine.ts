/**
 * Mint a batch of voucher codes (issue 35, product.md#ops-vouchers): partner, count (1..5000), days
 * (1..366), plan, expiry date (Manila, in the future), one per account or a use limit, and a reason.
 * The form's checks run here; the server checks again. A minted batch opens its page (codes, CSV);
 * a refusal keeps everything typed.
 */
import { assign, setup } from 'xstate';
import { m } from '../../i18n';
import { placeholder } from '../actors';
import { errorMessageOf, formStates, type Text } from '../shared';

export interface VoucherBatchValues {
  partner: string;
  count: string;
  days: string;
  planId: string;
  expiresOn: string;
  /** 'account': one use per account; 'limit': a number of uses per code. */
  limitKind: 'account' | 'limit';
  useLimit: string;
  reason: string;
}

export interface VoucherBatchRequest {
  partner: string;
  count: number;
  days: number;
  planId: number;
  expiresOn: string;
  perAccount: boolean;
  useLimit: number | null;
  reason: string;
}

export type VoucherBatchErrors = Partial<Record<keyof VoucherBatchValues, Text>>;

export interface VoucherBatchContext {
  values: VoucherBatchValues;
  fieldErrors: VoucherBatchErrors;
  serverMessage: string | null;
  /** Today's date in Manila (YYYY-MM-DD): the expiry must be after it. */
  today: string;
}

export type VoucherBatchEvent = { type: 'form.submit'; values: VoucherBatchValues };

export const EMPTY_BATCH: VoucherBatchValues = {
  partner: '', count: '', days: '30', planId: '', expiresOn: '', limitKind: 'account', useLimit: '', reason: '',
};

const inRange = (text: string, low: number, high: number) => {
  const value = Number(text.trim());
  return /^\d+$/.test(text.trim()) && value >= low && value <= high;
};

/** The form's checks, per field (none: valid). */
export function voucherBatchErrors(values: VoucherBatchValues, today: string): VoucherBatchErrors {
  const errors: VoucherBatchErrors = {};
  const partner = values.partner.trim();
  if (!partner) errors.partner = m.ops_partner_required;
  else if (partner.length > 100) errors.partner = m.ops_partner_too_long;
  if (!inRange(values.count, 1, 5000)) errors.count = m.ops_count_range;
  if (!inRange(values.days, 1, 366)) errors.days = () => m.ops_days_range({ max: '366' });
  if (!values.planId) errors.planId = m.ops_plan_required;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.expiresOn)) errors.expiresOn = m.ops_expiry_required;
  else if (values.expiresOn <= today) errors.expiresOn = m.ops_expiry_future;
  if (values.limitKind === 'limit' && !inRange(values.useLimit, 1, 100000)) errors.useLimit = m.ops_use_limit_range;
  const reason = values.reason.trim();
  if (!reason) errors.reason = m.ops_reason_required;
  else if (reason.length < 3 || reason.length > 500) errors.reason = m.ops_reason_length;
  return errors;
}

export function voucherBatchRequest(values: VoucherBatchValues): VoucherBatchRequest {
  return {
    partner: values.partner.trim(),
    count: Number(values.count),
    days: Number(values.days),
    planId: Number(values.planId),
    expiresOn: values.expiresOn,
    perAccount: values.limitKind === 'account',
    useLimit: values.limitKind === 'limit' ? Number(values.useLimit) : null,
    reason: values.reason.trim(),
  };
}

export const voucherBatchMachine = setup({
  types: {
    context: {} as VoucherBatchContext,
    events: {} as VoucherBatchEvent,
    input: {} as { today: string },
  },
  actors: {
    mintBatch: placeholder<{ id: string }, VoucherBatchRequest>('mintBatch'),
  },
  guards: {
    isFormValid: ({ context, event }) => Object.keys(voucherBatchErrors(event.values, context.today)).length === 0,
  },
  actions: {
    assignValues: assign(({ event }) => ({ values: event.values, fieldErrors: {}, serverMessage: null })),
    assignFieldErrors: assign(({ context, event }) => ({
      values: event.values, fieldErrors: voucherBatchErrors(event.values, context.today), serverMessage: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    goToBatch: (_, _params: { id: string }) => {},
  },
}).createMachine({
  id: 'voucherBatch',
  description:
    'On /ops/vouchers a finance operator mints a batch of voucher codes for a partner: count, days, plan, expiry, one per account or a use limit, and a reason. A minted batch opens its page; a refusal keeps what was typed.',
  meta: {
    title: 'Mint voucher codes',
    events: { 'form.submit': 'The operator presses Mint codes' },
  },
  context: ({ input }) => ({ values: EMPTY_BATCH, fieldErrors: {}, serverMessage: null, today: input.today }),
  initial: 'form',
  states: {
    form: {
      ...formStates,
      description: 'The mint form',
      meta: { screen: '/ops/vouchers' },
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'minting', actions: 'assignValues' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
      },
    },
    minting: {
      description: 'Minting the codes (POST /ops/voucher-batches)',
      invoke: {
        id: 'mintBatch',
        src: 'mintBatch',
        input: ({ context }) => voucherBatchRequest(context.values),
        onDone: { target: 'minted', actions: { type: 'goToBatch', params: ({ event }) => ({ id: event.output.id }) } },
        onError: { target: 'form.rejected', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    minted: {
      description: 'The batch is minted: its page opens',
      type: 'final',
    },
  },
});

export type VoucherBatchMachine = typeof voucherBatchMachine;
