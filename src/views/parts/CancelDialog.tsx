/** The cancel / reactivate confirmation (product.md#subscription), in the confirmation frame (ConfirmDialog). */
import type { RefObject } from 'react';
import type { ActorRefFrom } from 'xstate';
import { connectCancelSubscription } from '../../machines/cancelSubscription';
import type { CancelSubscriptionMachine } from '../../machines/cancelSubscription/cancelSubscription.machine';
import { button } from '../../styles/ui.css';
import * as css from '../pages/subscription.css';
import { useConnect } from '../useFlow';
import { ConfirmDialog } from './ConfirmDialog';
import { RenewalConsent } from './RenewalConsent';

export interface CancelDialogProps {
  actor: ActorRefFrom<CancelSubscriptionMachine>;
  opener: RefObject<HTMLButtonElement | null>;
}

export function CancelDialog({ actor, opener }: CancelDialogProps) {
  const view = useConnect(actor, connectCancelSubscription);
  return (
    <ConfirmDialog
      open={view.open}
      pending={view.pending}
      title={view.title}
      error={view.error}
      onDismiss={view.dismiss}
      opener={opener}
      actions={
        <>
          <button type="button" className={button.secondary} disabled={view.pending} onClick={view.dismiss}>
            {view.dismissLabel}
          </button>
          <button type="button" className={view.destructive ? button.danger : button.primary} disabled={view.pending} aria-busy={view.pending} onClick={view.confirm}>
            {view.confirmLabel}
          </button>
        </>
      }
    >
      {view.body.map((text) => <p key={text} className={css.dialogText}>{text}</p>)}
      {view.consent && <RenewalConsent {...view.consent} disabled={view.pending} />}
    </ConfirmDialog>
  );
}
