/** What the Renew now button shows from its flow (product.md#checkout-renewal). */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import type { RenewNowEvent, RenewNowMachine } from './renewNow.machine';

export interface RenewNowProps {
  /** The button's words: 'Renew now', or 'Opening checkout...' while the page is asked for and left for. */
  label: string;
  busy: boolean;
  /** Why the checkout could not be opened (also toasted). */
  error: string | null;
  renew: (subscriptionId: string) => void;
}

export function connectRenewNow(snapshot: SnapshotFrom<RenewNowMachine>, send: (event: RenewNowEvent) => void): RenewNowProps {
  const busy = snapshot.matches('opening') || snapshot.matches('leaving');
  return {
    label: busy ? m.opening_checkout() : m.renew_now(),
    busy,
    error: snapshot.matches('rejected') ? snapshot.context.error : null,
    renew: (subscriptionId) => send({ type: 'renew.start', subscriptionId }),
  };
}
