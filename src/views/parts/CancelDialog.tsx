/**
 * The cancel / reactivate confirmation on Ark UI's dialog: focus is trapped inside, Escape and the
 * close button cancel (not while the call runs), and focus returns to the button that opened it.
 */
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { RefObject } from 'react';
import type { ActorRefFrom } from 'xstate';
import { m } from '../../i18n';
import { connectCancelSubscription } from '../../machines/cancelSubscription';
import type { CancelSubscriptionMachine } from '../../machines/cancelSubscription/cancelSubscription.machine';
import { button } from '../../styles/ui.css';
import * as css from '../pages/subscription.css';
import { useConnect } from '../useFlow';
import { ErrorBox } from './ErrorBox';

export interface CancelDialogProps {
  actor: ActorRefFrom<CancelSubscriptionMachine>;
  opener: RefObject<HTMLButtonElement | null>;
}

export function CancelDialog({ actor, opener }: CancelDialogProps) {
  const view = useConnect(actor, connectCancelSubscription);
  return (
    <Dialog.Root
      open={view.open}
      role="alertdialog"
      closeOnEscape={!view.pending}
      closeOnInteractOutside={!view.pending}
      onOpenChange={({ open }) => { if (!open) view.dismiss(); }}
      finalFocusEl={() => opener.current}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className={css.backdrop} />
        <Dialog.Positioner className={css.positioner}>
          <Dialog.Content className={css.dialog} aria-busy={view.pending}>
            <Dialog.Title className={css.dialogTitle}>{view.title}</Dialog.Title>
            <Dialog.Description asChild>
              <div className={css.dialogBody}>
                {view.body.map((text) => <p key={text} className={css.dialogText}>{text}</p>)}
              </div>
            </Dialog.Description>
            <ErrorBox message={view.error} />
            <div className={css.dialogActions}>
              <button type="button" className={button.secondary} disabled={view.pending} onClick={view.dismiss}>
                {view.dismissLabel}
              </button>
              <button type="button" className={view.destructive ? button.danger : button.primary} disabled={view.pending} aria-busy={view.pending} onClick={view.confirm}>
                {view.confirmLabel}
              </button>
            </div>
            <Dialog.CloseTrigger className={css.closeButton} aria-label={m.close()} disabled={view.pending}>×</Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
