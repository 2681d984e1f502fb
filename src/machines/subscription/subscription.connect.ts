/** The subscription home's view props (zag's connect): where each of its three parts is, and Try again. */
import type { SnapshotFrom } from 'xstate';
import type { SubscriptionEvent, SubscriptionMachine } from './subscription.machine';

export type PartState = 'loading' | 'ready' | 'failed';

export function connectSubscription(state: SnapshotFrom<SubscriptionMachine>, send: (event: SubscriptionEvent) => void) {
  const value = state.value as Record<'status' | 'history' | 'payments', PartState>;
  return {
    status: { state: value.status, error: state.context.statusError },
    history: { state: value.history, error: state.context.historyError },
    payments: { state: value.payments, error: state.context.paymentsError },
    retry: () => send({ type: 'load.retry' }),
  };
}
