/** The wizard's view props (zag's connect): which step shows, what it says, and its handlers. */
import type { SnapshotFrom } from 'xstate';
import type { Plan } from '../../api/schemas';
import { cardTypeLabel, maskedCardNumber } from '../../lib/card';
import { formatBillingPeriod, formatPrice } from '../../lib/format';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import type { SubscribeEvent, SubscribeMachine, WizardMethod } from './subscribe.machine';
import { INVALID_QUERY } from './subscribe.machine';

export const STEP_TITLES = ['Select Plan', 'Payment Method', 'Confirm'] as const;

export const METHOD_LABELS: Record<WizardMethod, string> = {
  card: 'Credit/Debit Card',
  maya: 'Maya Wallet',
  checkout: 'Checkout',
};

export type WizardView = 'loading' | 'loadFailed' | 'invalidQuery' | 'selectPlan' | 'paymentMethod' | 'confirm' | 'leaving';

/** '₱99 monthly' (product.md#price-suffix, product.md#period-label). */
export function planPrice(plan: Plan): string {
  return `${formatPrice(plan.price, plan.currency)} ${formatBillingPeriod(plan.duration, plan.billingCycle)}`;
}

/** What happens after paying: a card or wallet renews by itself; checkout is paid again by hand. */
export function nextSteps(plan: Plan, method: WizardMethod): string {
  const period = formatBillingPeriod(plan.duration, plan.billingCycle);
  if (method === 'checkout') {
    return `This is a one-time payment for one ${period === 'yearly' ? 'year' : period === 'monthly' ? 'month' : 'period'}. It does not renew automatically: the app reminds you when your next payment is due, and you pay it by hand.`;
  }
  return `Your PREMIUM plan starts now and renews automatically (${period}) with this payment method until you cancel. If you cancel, you keep access until the end of the period.`;
}

export function methodDetail(method: WizardMethod, card: ChosenCard | null): string {
  if (method === 'card' && card) return `${cardTypeLabel(card.cardType)} ${maskedCardNumber(card.last4)}`;
  return METHOD_LABELS[method];
}

export function connectSubscribe(state: SnapshotFrom<SubscribeMachine>, send: (event: SubscribeEvent) => void) {
  const { context } = state;
  const view: WizardView =
    state.matches('checkingStatus') || state.matches('loadingPlans') || state.matches('routing') ? 'loading'
      : state.matches('loadFailed') ? 'loadFailed'
      : state.matches('invalidQuery') ? 'invalidQuery'
      : state.matches('selectPlan') ? 'selectPlan'
      : state.matches('paymentMethod') ? 'paymentMethod'
      : state.matches('confirm') ? 'confirm'
      : 'leaving';
  const paying = state.matches({ confirm: 'payingByCard' }) || state.matches({ confirm: 'payingByWallet' })
    || state.matches({ confirm: 'creatingCheckout' }) || state.matches({ confirm: 'confirmingCheckout' });
  const plan = context.selectedPlan;
  return {
    view,
    step: context.step,
    loadError: context.loadError,
    invalidQuery: INVALID_QUERY,
    /** A way on from an address that does not fit (a reload keeps the same address). */
    restartLabel: context.selectedPlan ? 'Choose the payment method again' : 'Start again',
    plan,
    planSlug: context.plan,
    method: context.method,
    walletLinkStatus: context.walletLinkStatus === 'invalid' ? null : context.walletLinkStatus,
    confirm: plan && context.method
      ? {
          planName: plan.name,
          price: planPrice(plan),
          method: methodDetail(context.method, context.card),
          next: nextSteps(plan, context.method),
          payLabel: paying ? 'Processing...' : `Pay ${formatPrice(plan.price, plan.currency)}`,
          paying,
        }
      : null,
    onRetry: () => send({ type: 'wizard.retry' }),
    onRestart: () => send({ type: 'wizard.restart' }),
    onSelectPlan: (chosen: Plan) => send({ type: 'plan.select', plan: chosen }),
    onSelectMethod: (method: WizardMethod) => send({ type: 'method.select', method }),
    onCardChosen: (card: ChosenCard) => send({ type: 'card.chosen', card }),
    onWalletChanged: (linkId: string | null) => send({ type: 'wallet.changed', linkId }),
    onContinue: () => send({ type: 'step.continue' }),
    onBack: () => send({ type: 'step.back' }),
    onEdit: (step: 1 | 2) => send({ type: 'step.edit', step }),
    onPay: () => send({ type: 'payment.submit' }),
  } as const;
}
