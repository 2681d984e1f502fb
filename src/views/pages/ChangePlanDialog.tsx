/** Change plan's confirmation (product.md#change-plan), in the confirmation frame; loaded when the page is idle or the dialog opens. */
import type { RefObject } from 'react';
import { m } from '../../i18n';
import type { ChangePlanDialogView } from '../../machines/changePlan/changePlan.connect';
import { button, muted } from '../../styles/ui.css';
import { ConfirmDialog } from '../parts/ConfirmDialog';
import { RenewalConsent } from '../parts/RenewalConsent';
import * as css from './changePlan.css';
import * as sub from './subscription.css';

export default function ChangePlanDialog({ view, opener }: { view: ChangePlanDialogView; opener: RefObject<HTMLButtonElement | null> }) {
  // A move down (product.md#scheduled-downgrade): nothing now, and the day the plan changes.
  const { later } = view;
  const facts = later
    ? [{ label: m.charged_now(), value: later.charged }, { label: m.your_plan_changes_to_on_label({ planName: later.planName }), value: later.date }]
    : view.facts;
  return (
    <ConfirmDialog
      open={view.open}
      pending={view.pending}
      busy={view.loading || view.pending}
      title={m.are_you_sure_you_want_to_change_your()}
      error={view.error}
      onDismiss={view.cancel}
      opener={opener}
      actions={
        <>
          <button type="button" className={button.secondary} disabled={view.pending} onClick={view.cancel}>{m.not_now_keep_plan()}</button>
          <button type="button" className={button.primary} disabled={!view.canConfirm} aria-busy={view.pending} onClick={view.confirm}>
            {view.pending ? m.changing() : m.yes_i_m_sure()}
          </button>
        </>
      }
    >
      <p className={sub.dialogText}>
        {view.later ? m.you_are_moving_to_the_plan_nothing(view.later) : view.explanation}
      </p>
      {view.loading && <p role="status" className={muted}>{m.calculating_your_new_plan()}</p>}
      {facts && (
        <dl className={css.dialogFacts} aria-label={m.what_changes()}>
          {facts.map((fact) => (
            <div key={fact.label} className={css.factRow}>
              <dt className={sub.factLabel}>{fact.label}</dt>
              <dd className={sub.factValue}>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {view.consent && <RenewalConsent {...view.consent} disabled={view.pending} />}
      {view.noRenewal && <p className={muted}>{view.noRenewal}</p>}
    </ConfirmDialog>
  );
}
