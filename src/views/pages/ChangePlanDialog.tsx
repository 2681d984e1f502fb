/** Change plan's confirmation (product.md#change-plan), on Ark UI's dialog; loaded when the page is idle or the dialog opens. */
import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { RefObject } from 'react';
import { m } from '../../i18n';
import type { ChangePlanDialogView } from '../../machines/changePlan/changePlan.connect';
import { button, muted } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import * as css from './changePlan.css';
import * as sub from './subscription.css';

export default function ChangePlanDialog({ view, opener }: { view: ChangePlanDialogView; opener: RefObject<HTMLButtonElement | null> }) {
  return (
    <Dialog.Root
      open={view.open}
      role="alertdialog"
      closeOnEscape={!view.pending}
      closeOnInteractOutside={!view.pending}
      onOpenChange={({ open }) => { if (!open) view.cancel(); }}
      finalFocusEl={() => opener.current}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className={sub.backdrop} />
        <Dialog.Positioner className={sub.positioner}>
          <Dialog.Content className={sub.dialog} aria-busy={view.loading || view.pending}>
            <Dialog.Title className={sub.dialogTitle}>{m.are_you_sure_you_want_to_change_your()}</Dialog.Title>
            <Dialog.Description asChild>
              <div className={sub.dialogBody}>
                <p className={sub.dialogText}>
                  {view.explanation}
                </p>
                {view.loading && <p role="status" className={muted}>{m.calculating_your_new_plan()}</p>}
                {view.facts && (
                  <dl className={css.dialogFacts} aria-label={m.what_changes()}>
                    {view.facts.map((fact) => (
                      <div key={fact.label} className={css.factRow}>
                        <dt className={sub.factLabel}>{fact.label}</dt>
                        <dd className={sub.factValue}>{fact.value}</dd>
                      </div>
                    ))}
                  </dl>
                )}
              </div>
            </Dialog.Description>
            <ErrorBox message={view.error} />
            <div className={sub.dialogActions}>
              <button type="button" className={button.secondary} disabled={view.pending} onClick={view.cancel}>{m.cancel()}</button>
              <button type="button" className={button.primary} disabled={!view.canConfirm} aria-busy={view.pending} onClick={view.confirm}>
                {view.pending ? m.changing() : m.yes_i_m_sure()}
              </button>
            </div>
            <Dialog.CloseTrigger className={sub.closeButton} aria-label={m.close()} disabled={view.pending}>×</Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
