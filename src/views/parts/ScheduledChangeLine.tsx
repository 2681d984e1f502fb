/** The scheduled move down and 'Keep {plan}' (product.md#scheduled-downgrade), from the keepPlan flow. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys } from '../../api/queries';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { fromCall } from '../../machines/actors';
import { connectKeepPlan, keepPlanMachine } from '../../machines/keepPlan';
import { button } from '../../styles/ui.css';
import * as css from '../pages/subscription.css';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { notifyAction } from './bindings';
import { ErrorBox } from './ErrorBox';

export default function ScheduledChangeLine({ status }: { status: SubscriptionStatusDetails }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [actors] = useState(() => ({ undoPlanChange: fromCall(api.undoPlanChange) }));
  const flow = useFlow(keepPlanMachine, {
    actors,
    // An undo changes the status alone (no history item, no payment): only it is read again.
    actions: { notify: notifyAction, subscriptionChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus }) },
  });
  const view = useConnect(flow, connectKeepPlan, status);
  if (!view) return null;
  return (
    <section className={css.notice.due} aria-label={view.line}>
      <p className={css.noticeText}><strong>{view.line}</strong></p>
      <p className={css.noticeText}>{view.note}</p>
      {view.error && <ErrorBox message={view.error} />}
      <div className={css.actions}>
        <button type="button" className={button.secondary} disabled={view.busy} aria-busy={view.busy} onClick={view.keep}>{view.label}</button>
      </div>
    </section>
  );
}
