/** What the Renew now button shows from its flow (product.md#checkout-renewal). */
import type { SnapshotFrom } from 'xstate';
import { m } from '../../i18n';
import { renewNowLabel } from './renewNow.format';
import type { RenewNowEvent, RenewNowMachine } from './renewNow.machine';

export interface RenewNowProps {
  /** The button's words: 'Renew now', or 'Processing...' while the period is paid or Maya's page is asked for and left for. */
  label: string;
  busy: boolean;
  /** Why the period could not be paid (also toasted). */
  error: string | null;
  renew: (subscriptionId: string) => void;
}

export function connectRenewNow(snapshot: SnapshotFrom<RenewNowMachine>, send: (event: RenewNowEvent) => void): RenewNowProps {
  const busy = snapshot.matches('paying') || snapshot.matches('leaving');
  return {
    label: busy ? m.processing() : renewNowLabel(),
    busy,
    error: snapshot.matches('rejected') ? snapshot.context.error : null,
    renew: (subscriptionId) => send({ type: 'renew.start', subscriptionId }),
  };
}
