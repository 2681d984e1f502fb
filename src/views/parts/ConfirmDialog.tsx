/**
 * A confirmation on Ark UI's dialog, as an alertdialog: focus is trapped inside; Escape, a click outside
 * and the close button dismiss it (not while its call runs); it opens on its first button (the safe choice)
 * and focus returns to the button that opened it.
 * The cancel / reactivate and the change plan confirmations are this frame with their own words and buttons.
 */
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useRef, type ReactNode, type RefObject } from 'react';
import { m } from '../../i18n';
import * as css from '../pages/subscription.css';
import { ErrorBox } from './ErrorBox';

export interface ConfirmDialogProps {
  open: boolean;
  /** Its call is running: nothing dismisses it. */
  pending: boolean;
  /** Busy for assistive technology (defaults to `pending`). */
  busy?: boolean;
  title: ReactNode;
  error: string | null | undefined;
  onDismiss: () => void;
  opener: RefObject<HTMLButtonElement | null>;
  /** The body, inside the dialog's description. */
  children: ReactNode;
  /** The buttons. */
  actions: ReactNode;
}

export function ConfirmDialog({ open, pending, busy = pending, title, error, onDismiss, opener, children, actions }: ConfirmDialogProps) {
  // It opens on the first of its buttons, the safe choice (Keep Subscription, Cancel), not on ×.
  const buttons = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root
      open={open}
      role="alertdialog"
      closeOnEscape={!pending}
      closeOnInteractOutside={!pending}
      onOpenChange={({ open: opened }) => { if (!opened) onDismiss(); }}
      finalFocusEl={() => opener.current}
      initialFocusEl={() => buttons.current!.querySelector('button')}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className={css.backdrop} />
        <Dialog.Positioner className={css.positioner}>
          <Dialog.Content className={css.dialog} aria-busy={busy}>
            <Dialog.Title className={css.dialogTitle}>{title}</Dialog.Title>
            <Dialog.Description asChild>
              <div className={css.dialogBody}>{children}</div>
            </Dialog.Description>
            <ErrorBox message={error} />
            <div ref={buttons} className={css.dialogActions}>{actions}</div>
            <Dialog.CloseTrigger className={css.closeButton} aria-label={m.close()} disabled={pending}>×</Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
