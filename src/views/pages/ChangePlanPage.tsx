/**
 * Change plan (product.md#change-plan, product.md#plan-change-flow, product.md#other-rules, product.md#errors; issue 9). The machine says where the
 * page is; the status and the plans are read from React Query, which its actors filled.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { plansQuery, subscriptionStatusQuery } from '../../api/queries';
import { m } from '../../i18n';
import { leaveFor } from '../../lib/leave';
import { routes } from '../../lib/route-paths';
import { createChangePlanActors } from '../../machines/changePlan/changePlan.actors';
import {
  CHANGE_PLAN_NOTE, VOUCHER_PLAN_NOTE, connectChangePlan, type PlanCardView,
} from '../../machines/changePlan/changePlan.connect';
import { changePlanMachine } from '../../machines/changePlan/changePlan.machine';
import { refreshSubscription } from '../../machines/subscription/subscription.actors';
import { button, card, heading, muted, page } from '../../styles/ui.css';
import { goToAction, notifyFor } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { ScheduledChange } from '../parts/ScheduledChange';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { lazyPage } from '../lazyPage';
import { DialogLoading, OnDemand } from '../parts/OnDemand';
import * as css from './changePlan.css';
import * as sub from './subscription.css';

// The confirmation dialog (Ark UI, ~19 KB) is not needed to show the plans: its code comes once the page is idle, or when asked for.
const ChangePlanDialog = lazyPage(() => import('./ChangePlanDialog'));

export default function ChangePlanPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [actors] = useState(() => createChangePlanActors(api, queryClient));
  const flow = useFlow(changePlanMachine, {
    actors,
    actions: {
      notify: notifyFor('changePlan'),
      subscriptionChanged: () => void refreshSubscription(queryClient),
      goTo: goToAction(navigate),
      openPaymentLink: (_, { url }) => leaveFor(url),
    },
  });
  // The machine's actors filled these entries; the page observes them once the chart says they are there.
  // The stage the chart was in at the last render says which (React's state from the previous render:
  // when the chart moves on, this render is redone at once with the queries it now allows).
  const [stage, setStage] = useState<string>('loadingStatus');
  const ready = stage === 'ready' || stage === 'voucher';
  const status = useQuery({ ...subscriptionStatusQuery(api), enabled: ready }).data;
  const plans = useQuery({ ...plansQuery(api), enabled: stage === 'ready' }).data;
  const view = useConnect(flow, connectChangePlan, { plans, status });
  if (view.stage !== stage) setStage(view.stage);
  const opener = useRef<HTMLButtonElement>(null);
  // The dialog's code (Ark's dialog) comes when the Change Plan button is pointed at, focused or pressed,
  // never with the page (scripts/bundle-budget.ts WHEN_ASKED); pressed before it came, the dialog's
  // backdrop says it is loading.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const askForDialog = () => {
    if (!dialogLoaded) void ChangePlanDialog.load().then(() => setDialogLoaded(true), () => undefined);
  };
  const { method } = view;

  return (
    <div className={page}>
      <Link href={routes.subscription} className={sub.backLink}>{m.back_to_subscription()}</Link>
      <div className={css.intro}>
        <h1 className={heading}>{m.choose_your_plan()}</h1>
        <p className={css.note}>{m.select_the_plan_that_works_best_for()}</p>
      </div>

      {view.stage === 'loadingStatus' && <p role="status" className={muted}>{m.loading_subscription_status()}</p>}
      {view.stage === 'loadingPlans' && <p role="status" className={muted}>{m.loading_subscription_plans()}</p>}
      {view.stage === 'failed' && (
        <div className={sub.errorArea}>
          <ErrorBox message={view.error} />
          <button type="button" className={button.secondary} onClick={view.retry}>{m.try_again()}</button>
        </div>
      )}
      {view.stage === 'noSubscription' && (
        <section className={card}>
          <p className={sub.empty}>{m.no_subscription_found()}</p>
          <Link href={routes.subscription} className={button.secondary}>{m.back_to_subscription_2()}</Link>
        </section>
      )}
      {view.stage === 'voucher' && (
        <section className={card} aria-labelledby="method-title">
          <h2 id="method-title" className={sub.cardTitle}>{m.current_payment_method()}</h2>
          <p>{m.voucher()} {method?.detail && <span className={sub.mono}>{method.detail}</span>}</p>
          <p className={css.note}>{VOUCHER_PLAN_NOTE()}</p>
        </section>
      )}
      {view.stage === 'ready' && (
        <>
          <section className={card} aria-labelledby="method-title">
            <h2 id="method-title" className={sub.cardTitle}>{m.current_payment_method()}</h2>
            {method && (
              <p>
                {method.name}
                {method.detail && <> <span className={sub.mono}>{method.detail}</span></>}
              </p>
            )}
            <p className={css.note}>{CHANGE_PLAN_NOTE()}</p>
            {status && <ScheduledChange status={status} className={sub.notice.due} />}
          </section>
          <PlanGrid cards={view.cards} onSelect={view.select} />
          <div className={css.footer}>
            <button
              ref={opener} type="button" className={button.primary} onPointerOver={askForDialog} onFocus={askForDialog}
              onClick={() => { askForDialog(); view.openDialog(); }}
            >{m.change_plan()}</button>
          </div>
        </>
      )}
      {(dialogLoaded || view.dialog.open) && (
        <OnDemand part={ChangePlanDialog} fallback={view.dialog.open ? <DialogLoading className={sub.backdrop} /> : null} resetKey={view.dialog.open} onFailed={view.dialog.cancel}>
          <ChangePlanDialog view={view.dialog} opener={opener} />
        </OnDemand>
      )}
    </div>
  );
}

function PlanGrid({ cards, onSelect }: { cards: readonly PlanCardView[]; onSelect: (planId: number) => void }) {
  return (
    <ul className={css.grid} aria-label={m.plans()}>
      {cards.map((plan) => (
        <li key={plan.id} className={`${css.planCard} ${plan.selected ? css.selected : ''}`} aria-labelledby={`plan-${plan.id}`}>
          <div className={css.planTop}>
            <h2 id={`plan-${plan.id}`} className={css.planTitle}>{plan.name}</h2>
            {plan.popular && <span className={sub.badge.type}>{m.popular()}</span>}
            {plan.selected && <span className={css.chosen}>{m.chosen()}</span>}
          </div>
          <p className={css.note}>{plan.description}</p>
          <p className={css.price}>
            {plan.currency}{plan.amount} <span className={css.period}>/ {plan.period}</span>
          </p>
          <p className={css.vat}>{m.vat_included()}</p>
          <ul className={css.features}>
            {plan.features.map((feature) => <li key={feature}>{feature}</li>)}
          </ul>
          {plan.current ? (
            <button type="button" className={button.secondary} disabled>{m.current_plan()}</button>
          ) : (
            <button
              type="button"
              className={plan.selected ? button.primary : button.secondary}
              aria-pressed={plan.selected}
              aria-describedby={`plan-${plan.id}`}
              onClick={() => onSelect(plan.id)}
            >
              {m.select_plan()}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

