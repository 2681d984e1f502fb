/** The change-payment-method actors: status through React Query, the update, and the overdue charge's outcome. */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { Api } from '../../api/endpoints';
import { subscriptionStatusQuery } from '../../api/queries';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { fromCall } from '../actors';
import { failureReason } from '../subscription/subscription.format';
import type { ChargeOutcome } from './paymentMethod.machine';

/** How often, and how many times, the status is read after a save while PAST_DUE (the engine charges within seconds). */
export const CHARGE_POLL_MS = 2000;
export const CHARGE_POLLS = 15;

/**
 * What the status says of the overdue charge scheduled at `chargeAt`: paid once the subscription is no
 * longer PAST_DUE; refused once it is still PAST_DUE but its next attempt is no longer that one (the
 * engine made it and scheduled the next retry, or none); otherwise not known yet (null).
 */
export function chargeOutcomeOf(status: SubscriptionStatusDetails, chargeAt: string): ChargeOutcome | null {
  if (status.status !== 'PAST_DUE') return status.status === 'ACTIVE' ? { outcome: 'paid' } : { outcome: 'pending' };
  const renewal = status.renewal?.state === 'PAST_DUE' ? status.renewal : null;
  if (!renewal) return null;
  const next = renewal.nextAttemptDate ? Date.parse(renewal.nextAttemptDate) : null;
  if (next !== null && next === Date.parse(chargeAt)) return null;
  return { outcome: 'failed', reason: failureReason(renewal.failure) };
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });

export function createPaymentMethodActors(api: Api, queryClient: QueryClient, pollMs = CHARGE_POLL_MS) {
  const readStatus = () => queryClient.fetchQuery({ ...subscriptionStatusQuery(api), staleTime: 0, retry: false });
  return {
    loadStatus: fromPromise<SubscriptionStatusDetails>(readStatus),
    updatePaymentMethod: fromCall(api.updatePaymentMethod),
    awaitCharge: fromPromise<ChargeOutcome, { chargeAt: string }>(async ({ input, signal }) => {
      for (let poll = 0; poll < CHARGE_POLLS; poll += 1) {
        await pause(pollMs, signal);
        const known = chargeOutcomeOf(await readStatus(), input.chargeAt);
        if (known) return known;
      }
      return { outcome: 'pending' };
    }),
  };
}
