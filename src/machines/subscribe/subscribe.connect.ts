/** The wizard's view props (zag's connect): which step shows, what it says, and its handlers. */
import type { SnapshotFrom } from 'xstate';
import type { Plan } from '../../api/schemas';
import { m } from '../../i18n';
import { cardTypeLabel, maskedCardNumber } from '../../lib/card';
import { formatBillingPeriod, formatPrice } from '../../lib/format';
import { addBillingPeriod } from '../../lib/billingPeriod';
import { renewalConsentText, ticked } from '../../lib/renewalConsent';
import type { ChosenCard } from '../cardEntry/cardEntry.machine';
import type { SubscribeEvent, SubscribeMachine, WizardMethod } from './subscribe.machine';
import { CHECKOUT_CONFIRMATION, INVALID_QUERY } from './subscribe.machine';

/** The steps' titles and the methods' names: catalog messages, called when rendering (issue 20). */
export const STEP_TITLES = [m.select_plan, m.payment_method, m.confirm] as const;

/** The options' names and hints: the same as on change payment method (product.md#method-names). */
export const METHOD_LABELS: Record<WizardMethod, () => string> = {
  card: m.credit_debit,
  maya: m.wallet,
  checkout: m.checkout,
};
export const METHOD_HINTS: Record<WizardMethod, () => string> = {
  card: m.visa_mastercard_or_jcb,
  maya: m.maya_wallet,
  checkout: m.pay_on_maya_s_page_each_period,
};
/** How the chosen method reads on Confirm (the wallet by its provider's name). */
const CONFIRM_NAMES: Record<WizardMethod, () => string> = { card: m.credit_debit_card, maya: m.maya_wallet, checkout: m.checkout };

export type WizardView = 'loading' | 'loadFailed' | 'invalidQuery' | 'selectPlan' | 'paymentMethod' | 'confirm' | 'leaving';

/** '₱99 monthly' (product.md#price-suffix, product.md#period-label). */
export function planPrice(plan: Plan): string {
  return `${formatPrice(plan.price, plan.currency)} ${formatBillingPeriod(plan.duration, plan.billingCycle)}`;
}

/** What happens after paying: a card or wallet renews by itself; checkout is paid again by hand. */
export function nextSteps(plan: Plan, method: WizardMethod): string {
  if (method === 'checkout') {
    // One year, one month, or another period (formatBillingPeriod's 'yearly' and 'monthly').
    const single = Number(plan.duration) === 1;
    if (single && plan.billingCycle === 'year') return m.this_is_a_one_time_payment_for_one();
    if (single && plan.billingCycle === 'month') return m.this_is_a_one_time_payment_for_one_2();
    return m.this_is_a_one_time_payment_for_one_3();
  }
  return m.your_premium_plan_starts_now_and({ period: formatBillingPeriod(plan.duration, plan.billingCycle) });
}

export function methodDetail(method: WizardMethod, card: ChosenCard | null): string {
  if (method === 'card' && card) return `${cardTypeLabel(card.cardType)} ${maskedCardNumber(card.last4)}`;
  return CONFIRM_NAMES[method]();
}

/** product.md#renewal-consent: the plan bought now renews at the end of its first period, at its price. */
export function purchaseConsentText(plan: Plan, now: Date = new Date()): string {
  return renewalConsentText({ renewsOn: addBillingPeriod(now, plan.billingCycle, Number(plan.duration)), amount: plan.price, currency: plan.currency });
}

export function connectSubscribe(state: SnapshotFrom<SubscribeMachine>, send: (event: SubscribeEvent) => void) {
  const { context } = state;
  const view: WizardView =
    state.matches('checkingStatus') || state.matches('loadingPlans') || state.matches('routing') ? 'loading'
      : state.matches('loadFailed') ? 'loadFailed'
      : state.matches('invalidQuery') ? 'invalidQuery'
      : state.matches('selectPlan') ? 'selectPlan'
      : state.matches('paymentMethod') || state.matches('checkoutQuestion') ? 'paymentMethod'
      : state.matches('confirm') ? 'confirm'
      : 'leaving';
  const paying = state.matches({ confirm: 'payingByCard' }) || state.matches({ confirm: 'payingByWallet' })
    || state.matches({ confirm: 'creatingCheckout' });
  const plan = context.selectedPlan;
  const consentOf = (text: string) => ({
    text,
    checked: context.renewalConsent !== null,
    missing: state.matches({ confirm: 'consentMissing' }),
    prompts: context.consentPrompts,
    onToggle: (checked: boolean) => send({ type: 'consent.toggle', consent: checked ? ticked(text) : null }),
  });
  return {
    view,
    step: context.step,
    loadError: context.loadError,
    invalidQuery: INVALID_QUERY(),
    /** A way on from an address that does not fit (a reload keeps the same address). */
    restartLabel: context.selectedPlan ? m.choose_the_payment_method_again() : m.start_again(),
    plan,
    planSlug: context.plan,
    method: context.method,
    walletLinkStatus: context.walletLinkStatus === 'invalid' ? null : context.walletLinkStatus,
    /** Checkout was just picked: the spec's question shows (product.md#checkout-confirmation). */
    checkoutQuestion: state.matches('checkoutQuestion') ? CHECKOUT_CONFIRMATION() : null,
    confirm: plan && context.method
      ? {
          planName: plan.name,
          price: planPrice(plan),
          method: methodDetail(context.method, context.card),
          next: nextSteps(plan, context.method),
          payLabel: paying ? m.processing() : m.pay({ price: formatPrice(plan.price, plan.currency) }),
          paying,
          /** A card or wallet renews by itself: the sentence and the tick (product.md#renewal-consent); checkout says it does not renew (`next`). */
          consent: context.method === 'checkout' ? null : consentOf(purchaseConsentText(plan)),
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
    onConfirmCheckout: () => send({ type: 'checkout.confirm' }),
    onDeclineCheckout: () => send({ type: 'checkout.decline' }),
  } as const;
}
