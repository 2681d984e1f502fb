/** What the change-plan page and its dialog show in each state (pure; the view only renders). */
import type { SnapshotFrom } from 'xstate';
import type { Plan, SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/dates';
import { currencySymbol, formatBillingPeriod } from '../../lib/format';
import { formatPrice, paymentMethodView, type PaymentMethodView } from '../subscription/subscription.format';
import { renewalConsentText, ticked } from '../../lib/renewalConsent';
import type { ChangePlanEvent, ChangePlanMachine } from './changePlan.machine';

// Catalog messages (issue 20): the page calls them when rendering.
export const CHANGE_PLAN_NOTE = m.changing_subscription_plan_will_take;
export const VOUCHER_PLAN_NOTE = m.voucher_subscriptions_cannot_change;

export type ChangePlanStage = 'loadingStatus' | 'loadingPlans' | 'failed' | 'noSubscription' | 'voucher' | 'ready';

export interface ChangePlanPageView {
  stage: ChangePlanStage;
  error: string | null;
  selectedPlanId: number | null;
  currentPlanId: number | null;
  retry: () => void;
  select: (planId: number) => void;
  openDialog: () => void;
}

function changePlanPageView(snapshot: SnapshotFrom<ChangePlanMachine>, send: (event: ChangePlanEvent) => void): ChangePlanPageView {
  const stage: ChangePlanStage = snapshot.matches('loadingStatus') ? 'loadingStatus'
    : snapshot.matches('loadingPlans') ? 'loadingPlans'
    : snapshot.matches('failed') ? 'failed'
    : snapshot.matches('noSubscription') ? 'noSubscription'
    : snapshot.matches('voucher') ? 'voucher'
    : 'ready';
  return {
    stage,
    error: stage === 'failed' ? snapshot.context.error : null,
    selectedPlanId: snapshot.context.selectedPlanId,
    currentPlanId: snapshot.context.currentPlanId,
    retry: () => send({ type: 'load.retry' }),
    select: (planId) => send({ type: 'plan.select', planId }),
    openDialog: () => send({ type: 'dialog.open' }),
  };
}

export interface PlanCardView {
  id: number;
  name: string;
  description: string;
  currency: string;
  /** The price without its symbol, with product.md#price-suffix ('99', '99/50'). */
  amount: string;
  /** 'monthly', 'yearly', '3 months' (product.md#period-label). */
  period: string;
  features: string[];
  popular: boolean;
  current: boolean;
  selected: boolean;
}

export function planCards(plans: readonly Plan[], currentPlanId: number | null, selectedPlanId: number | null): PlanCardView[] {
  return [...plans]
    .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
    .map((plan) => {
      const symbol = currencySymbol(plan.currency);
      return {
        id: plan.id,
        name: plan.name,
        description: plan.description,
        currency: symbol,
        amount: formatPrice(plan.price, plan.currency).slice(symbol.length),
        period: formatBillingPeriod(plan.duration, plan.billingCycle),
        features: plan.features,
        popular: plan.popular,
        current: plan.id === currentPlanId,
        selected: plan.id === selectedPlanId && plan.id !== currentPlanId,
      };
    });
}

export function currentMethod(status: SubscriptionStatusDetails | undefined): PaymentMethodView | null {
  return status ? paymentMethodView(status) : null;
}

export interface ChangePlanDialogView {
  open: boolean;
  /** The numbers are being asked for. */
  loading: boolean;
  /** The change is running: nothing can be pressed. */
  pending: boolean;
  planName: string;
  /** How the change is paid: with the card or wallet at once, or on Maya's checkout page (a checkout subscription). */
  explanation: string;
  /** The server's numbers for a change made now; null until they are in (or for a move down). */
  facts: Array<{ label: string; value: string }> | null;
  /**
   * A move down at the end of the paid period (product.md#scheduled-downgrade): what the dialog says
   * instead (its words are the dialog's own, so they travel with its chunk only).
   */
  later: { planName: string; currentPlanName: string; date: string; charged: string } | null;
  error: string | null;
  /** product.md#renewal-consent: on a card or wallet plan, the sentence and its tick (null for checkout, or until the numbers are in). */
  consent: { text: string; checked: boolean; missing: boolean; prompts: number; onToggle: (checked: boolean) => void } | null;
  /** Checkout does not renew: said instead of the tick. */
  noRenewal: string | null;
  canConfirm: boolean;
  confirm: () => void;
  cancel: () => void;
}

/** The dialog's sentence: a checkout subscription pays on Maya's page, not "with your current payment method". */
export function changeExplanation(planName: string, paymentMethod: string | null | undefined): string {
  return paymentMethod === 'MAYA_CHECKOUT'
    ? m.you_are_changing_to_the_plan_you_pay({ planName })
    : m.you_are_changing_to_the_plan_the({ planName });
}

function changePlanDialogView(
  snapshot: SnapshotFrom<ChangePlanMachine>,
  send: (event: ChangePlanEvent) => void,
  plans: readonly Plan[] | undefined,
  status?: SubscriptionStatusDetails,
): ChangePlanDialogView {
  const { preview, error, selectedPlanId } = snapshot.context;
  const open = snapshot.matches('open');
  const plan = plans?.find((p) => p.id === selectedPlanId);
  const planName = plan?.name ?? '';
  const days = preview?.carriedDays ?? 0;
  // A move down at the end of the paid period (product.md#scheduled-downgrade): nothing now, the day it changes.
  const changesOn = preview?.changesOn;
  // product.md#renewal-consent: the new plan renews at its price, on the day a move down takes effect or at the end of the new period.
  const consentText = preview && plan && snapshot.context.renews
    ? renewalConsentText({ renewsOn: changesOn ?? preview.newEndDate, amount: plan.price, currency: plan.currency })
    : null;
  return {
    open,
    loading: snapshot.matches({ open: 'previewing' }),
    pending: snapshot.matches({ open: 'changing' }) || snapshot.matches({ open: 'scheduling' }),
    planName,
    explanation: changeExplanation(planName, status?.paymentMethod ?? null),
    later: preview && changesOn
      ? { planName, currentPlanName: status?.planName ?? '', date: formatDate(changesOn), charged: formatPrice(preview.amountDue, preview.currency) }
      : null,
    facts: preview && !changesOn
      ? [
          { label: m.charged_now(), value: formatPrice(preview.amountDue, preview.currency) },
          { label: m.days_carried_over(), value: days === 1 ? m.day({ days }) : m.days({ days }) },
          { label: m.new_end_date(), value: formatDateTime(preview.newEndDate) },
        ]
      : null,
    error: snapshot.matches({ open: 'rejected' }) || snapshot.matches({ open: 'previewFailed' }) ? error : null,
    consent: consentText !== null
      ? {
          text: consentText,
          checked: snapshot.context.renewalConsent !== null,
          missing: snapshot.matches({ open: 'consentMissing' }),
          prompts: snapshot.context.consentPrompts,
          onToggle: (checked: boolean) => send({ type: 'consent.toggle', consent: checked ? ticked(consentText) : null }),
        }
      : null,
    noRenewal: preview && status?.paymentMethod === 'MAYA_CHECKOUT' ? m.maya_checkout_does_not_renew_you_pay() : null,
    canConfirm: snapshot.matches({ open: 'confirming' }) || snapshot.matches({ open: 'confirmingLater' }) || snapshot.matches({ open: 'rejected' })
      || snapshot.matches({ open: 'consentMissing' }),
    confirm: () => send({ type: 'dialog.confirm' }),
    cancel: () => send({ type: 'dialog.cancel' }),
  };
}

/** What the page reads from React Query, which the chart's actors filled. */
export interface ChangePlanData {
  plans: readonly Plan[] | undefined;
  status: SubscriptionStatusDetails | undefined;
}

/** Change plan's view props (zag's connect): the page, its plan cards, the current method and the dialog. */
export function connectChangePlan(snapshot: SnapshotFrom<ChangePlanMachine>, send: (event: ChangePlanEvent) => void, data: ChangePlanData) {
  const page = changePlanPageView(snapshot, send);
  return {
    ...page,
    method: currentMethod(data.status),
    cards: page.stage === 'ready' ? planCards(data.plans ?? [], page.currentPlanId, page.selectedPlanId) : [],
    dialog: changePlanDialogView(snapshot, send, data.plans, data.status),
  };
}
