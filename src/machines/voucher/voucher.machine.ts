/**
 * Redeem a voucher (product.md#redeem-voucher, product.md#voucher-flow, product.md#form-rules, product.md#errors): the code is required and upper
 * case; success toasts 'Voucher redeemed successfully', refreshes the subscription and goes to
 * /subscription; a refusal is toasted with the server's message and the typed code stays.
 */
import { placeholder } from '../actors';
import { assign, setup } from 'xstate';
import { messages, voucherRedeemRequestSchema, type VoucherSubscription } from '../../api/schemas';
import { m } from '../../i18n';
import { errorMessageOf, formStates, type Notify, type Text } from '../shared';

export const VOUCHER_REDEEMED = m.voucher_redeemed_successfully;

export interface VoucherContext {
  code: string | null;
  fieldError: Text | null;
  serverMessage: string | null;
}

export type VoucherEvent = { type: 'form.submit'; code: string };

export const voucherMachine = setup({
  types: {
    context: {} as VoucherContext,
    events: {} as VoucherEvent,
  },
  actors: {
    redeemVoucher: placeholder<VoucherSubscription, { code: string }>('redeemVoucher'),
  },
  guards: {
    isCodeGiven: ({ event }) => voucherRedeemRequestSchema.safeParse({ code: event.code }).success,
  },
  actions: {
    assignCode: assign(({ event }) => ({
      code: voucherRedeemRequestSchema.parse({ code: event.code }).code, fieldError: null, serverMessage: null,
    })),
    assignFieldError: assign(({ event }) => ({
      // The contract's messages are read in the language in use when the check runs.
      fieldError: voucherRedeemRequestSchema.safeParse({ code: event.code }).error?.issues[0]?.message ?? messages.voucherRequired(),
      serverMessage: null,
    })),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    notify: (_, _params: Notify) => {},
    subscriptionChanged: () => {},
    goToSubscription: () => {},
  },
}).createMachine({
  id: 'voucher',
  description:
    'On /subscription/redeem-voucher the person types a voucher code. A redeemed voucher is toasted, refreshes the subscription and goes to /subscription; a refusal is toasted with the server\'s message and the code stays.',
  meta: {
    title: 'Redeem a voucher',
    events: {
      'form.submit': 'The person presses Redeem',
    },
  },
  context: { code: null, fieldError: null, serverMessage: null },
  initial: 'form',
  states: {
    form: {
      ...formStates,
      description: 'The voucher form',
      meta: { screen: '/subscription/redeem-voucher' },
      on: {
        'form.submit': [
          { guard: 'isCodeGiven', target: 'redeeming', actions: 'assignCode' },
          { target: '.invalid', actions: 'assignFieldError' },
        ],
      },
    },
    redeeming: {
      description: 'Redeeming the code',
      invoke: {
        id: 'redeemVoucher',
        src: 'redeemVoucher',
        input: ({ context }) => ({ code: context.code! }),
        onDone: {
          target: 'redeemed',
          actions: [
            { type: 'notify', params: { kind: 'success', message: VOUCHER_REDEEMED } },
            'subscriptionChanged',
            'goToSubscription',
          ],
        },
        onError: {
          target: 'form.rejected',
          actions: [
            { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
          ],
        },
      },
    },
    redeemed: { type: 'final', description: 'Voucher redeemed' },
  },
});

export type VoucherMachine = typeof voucherMachine;
