/** The scheduled move down and 'Keep {plan}' (product.md#scheduled-downgrade), from the keepPlan flow. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys } from '../../api/queries';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { fromCall } from '../../machines/actors';
import { connectKeepPlan, keepPlanMachine } from '../../machines/keepPlan';
import { button } from '../../styles/ui.css';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { notifyFor } from './bindings';
import { ErrorBox } from './ErrorBox';

/** `className`: the page's notice box (the page has its styles already: this part brings none, and loads less). */
export default function ScheduledChangeLine({ status, className }: { status: SubscriptionStatusDetails; className: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [actors] = useState(() => ({ keepPlan: fromCall(api.keepPlan) }));
  const flow = useFlow(keepPlanMachine, {
    actors,
    // An undo changes the status alone (no history item, no payment): only it is read again.
    // Its toast replaces the plan change's ('Your plan changes to Monthly on …' then 'You keep the Yearly plan'): one key.
    actions: { notify: notifyFor('changePlan'), subscriptionChanged: () => void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus }) },
  });
  const view = useConnect(flow, connectKeepPlan, status);
  if (!view) return null;
  return (
    <section className={className} aria-label={view.line}>
      <div><strong>{view.line}</strong></div>
      <div>{view.note}</div>
      {view.error && <ErrorBox message={view.error} />}
      <button type="button" className={button.secondary} disabled={view.busy} aria-busy={view.busy} onClick={view.keep}>{view.label}</button>
    </section>
  );
}
