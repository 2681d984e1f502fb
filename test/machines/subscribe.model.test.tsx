/**
 * The subscribe wizard against the real page, with the real card form and wallet panel inside it.
 * The wizard's own calls are deferreds the harness answers; the children's reads answer at once
 * (the saved Visa; the wallet link as the last 'wallet.changed' said), so their reports reach the
 * wizard as they do in the browser. The browser confirmation and the redirect are replaced (they
 * are named actions of the machine for that reason): the confirmation records the request and the
 * executor gives the person's answer.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromPromise, type AnyActorRef } from 'xstate';
import { ApiError } from '../../src/api/http';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import type { WalletLink } from '../../src/api/schemas';
import type { ChosenCard } from '../../src/machines/cardEntry/cardEntry.machine';
import { choiceState, format, type SubscribeLocation, type WizardMethod } from '../../src/machines/subscribe/subscribe.address';
import { INVALID_QUERY, subscribeMachine } from '../../src/machines/subscribe/subscribe.machine';
import { METHOD_LABELS, nextSteps, planPrice, purchaseConsentText } from '../../src/machines/subscribe/subscribe.connect';
import type { Plan } from '../../src/api/schemas';
import { currentLocale, m, overwriteGetLocale, type Locale } from '../../src/i18n';
import SubscribePage from '../../src/views/pages/SubscribePage';
import { describeModel } from '../support/model';
import { noEnglishPlanText, plansIn as plansInLanguage } from '../support/plan-texts';
import { monthlyPlan, plansFixture, savedVisa, walletLinkFixture, yearlyPlan } from '../support/payments';
import { cachingActors, freeStatus, premiumStatus, renderSubscriptionView } from '../support/subscription';

const at = (location: Partial<SubscribeLocation>): SubscribeLocation => ({ plan: null, step: 1, method: null, walletLinkStatus: null, ...location });
const chosenVisa: ChosenCard = { cardTokenId: savedVisa.cardTokenId, cardType: savedVisa.cardType, last4: savedVisa.last4 };
const THREE_DS = 'https://sine.example.ph/sandbox/maya/3ds/pay-1';
const CHECKOUT_PAGE = 'https://sine.example.ph/sandbox/maya/checkout/chk-1';
const DECLINED = 'Your payment was declined. Please use another card or payment method.';
const DUPLICATE = 'A payment for this plan is already in progress. Please finish it or wait a few minutes.';

interface Run extends ReturnType<typeof renderSubscriptionView> {
  redirect: ReturnType<typeof vi.fn>;
  confirmations: AnyActorRef[];
  /** The wallet panel's lookup, answered by the 'wallet.changed' executor. */
  walletLookup: { pending: Array<(link: WalletLink) => void>; linked: boolean };
}

const step = () => within(screen.getByRole('region', { name: new RegExp(`^(${[m.select_plan(), m.payment_method(), m.confirm()].join('|')})$`) }));
/** The pay button, whatever the price: 'Pay ₱99', 'Magbayad og ₱99'. */
const PAY = () => new RegExp(`^${m.pay({ price: '₱' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** The plans as GET /subscription/plans answers them in `locale` (product.md#plan-texts): [monthly, yearly]. */
const plansIn = (locale: Locale): [Plan, Plan] => plansInLanguage(locale, [monthlyPlan, yearlyPlan]);
const lastAddress = (run: Run) => new URL(run.location.history.at(-1)!, 'http://x');

function subscribeModel(locale: Locale) {
const [monthly, yearly] = plansIn(locale);
describeModel(locale === 'en' ? 'subscribe' : `subscribe (${locale})`, {
  machine: subscribeMachine,
  // The English run's paths are the ones docs/statecharts/scenarios lists.
  scenarios: locale === 'en',
  // A fresh start; the return from Maya's wallet page; a return with an address the spec does not know;
  // a reload of Confirm by card (the card is kept with the history entry, not in the address).
  inputs: [
    at({}),
    { ...at({ plan: 'yearly', step: 3, method: 'card' }), card: chosenVisa },
    at({ plan: 'monthly', step: 2, method: 'maya', walletLinkStatus: 'success' }),
    at({ plan: 'monthly', step: 2, method: 'maya', walletLinkStatus: 'invalid' }),
  ],
  events: {
    'plan.select': [{ type: 'plan.select', plan: monthly }, { type: 'plan.select', plan: yearly }],
    'method.select': [
      { type: 'method.select', method: 'card' },
      { type: 'method.select', method: 'maya' },
      { type: 'method.select', method: 'checkout' },
    ],
    'card.chosen': [{ type: 'card.chosen', card: chosenVisa }],
    'wallet.changed': [{ type: 'wallet.changed', linkId: walletLinkFixture.linkId }],
    'step.continue': [{ type: 'step.continue' }],
    'step.back': [{ type: 'step.back' }],
    'step.edit': [{ type: 'step.edit', step: 1 }, { type: 'step.edit', step: 2 }],
    'payment.submit': [{ type: 'payment.submit' }],
    // The view sends the sentence it shows (product.md#renewal-consent); the fixture's words only stand for it.
    'consent.toggle': [{ type: 'consent.toggle', consent: { accepted: true, text: 'the sentence shown', language: locale } }, { type: 'consent.toggle', consent: null }],
    'checkout.confirm': [{ type: 'checkout.confirm' }],
    'checkout.decline': [{ type: 'checkout.decline' }],
    'wizard.retry': [{ type: 'wizard.retry' }],
    'wizard.restart': [{ type: 'wizard.restart' }],
    'location.changed': [
      // A reload or a link straight to the confirm step; back from it to step 2.
      { type: 'location.changed', location: at({ plan: 'monthly', step: 3, method: 'checkout' }) },
      { type: 'location.changed', location: at({ plan: 'monthly', step: 2, method: 'checkout' }) },
    ],
  },
  serializeContext: (s) =>
    [s.context.plan, s.context.step, s.context.method, s.context.card ? 'card' : '', s.context.linkId ?? '', s.context.walletLinkStatus ?? '', s.context.renewalConsent ? 'agreed' : ''].join('|'),
  prune: (s, e) => {
    const { context } = s;
    const fresh = context.plan === null;
    const answer = (id: string) => e.type === `xstate.done.actor.${id}` || e.type === `xstate.error.actor.${id}`;
    // The returns from Maya: the wallet return goes on to pay with the link; the invalid one stops.
    if (context.walletLinkStatus === 'invalid') {
      return e.type === 'wizard.restart' || e.type === 'xstate.done.actor.loadPlans'
        || (e.type === 'xstate.done.actor.loadStatus' && (e as unknown as { output: { planType: string } }).output.planType === 'FREE');
    }
    // The reload of Confirm by card: it pays, or goes back a step.
    if (context.plan === 'yearly' && context.card !== null) {
      if (e.type === 'consent.toggle') return ((e as unknown as { consent: unknown }).consent !== null) === (context.renewalConsent === null);
      return ['payment.submit', 'step.back', 'xstate.done.actor.loadPlans', 'xstate.done.actor.payWithCard'].includes(e.type)
        || (e.type === 'xstate.done.actor.loadStatus' && (e as unknown as { output: { planType: string } }).output.planType === 'FREE');
    }
    if (context.walletLinkStatus === 'success') {
      if (e.type === 'wallet.changed') return context.linkId === null;
      if (e.type === 'consent.toggle') return ((e as unknown as { consent: unknown }).consent !== null) === (context.renewalConsent === null);
      return ['step.continue', 'payment.submit', 'xstate.done.actor.loadPlans', 'xstate.done.actor.payWithWallet'].includes(e.type)
        || (e.type === 'xstate.done.actor.loadStatus' && (e as unknown as { output: { planType: string } }).output.planType === 'FREE');
    }
    // Failed loads and a PREMIUM viewer once, from the fresh start.
    if (answer('loadStatus') || answer('loadPlans')) {
      const ok = e.type === 'xstate.done.actor.loadPlans'
        || (e.type === 'xstate.done.actor.loadStatus' && (e as unknown as { output: { planType: string } }).output.planType === 'FREE');
      return ok || fresh;
    }
    switch (e.type) {
      // Addresses arrive on the plan list of a fresh start, and on the confirm step by checkout.
      case 'location.changed':
        return (s.matches('selectPlan') && fresh) || (s.matches({ confirm: 'reviewing' }) && context.method === 'checkout');
      // The yearly plan once, from a fresh start; the monthly plan everywhere else.
      case 'plan.select': return (e as unknown as { plan: { slug: string } }).plan.slug === 'monthly' || fresh;
      // A method is chosen while none is set up yet, and differs from the current one.
      case 'method.select':
        return context.card === null && context.linkId === null && (e as unknown as { method: string }).method !== context.method;
      case 'card.chosen': return context.method === 'card';
      // Maya's lookup answers while the panel shows; once linked, the link stays.
      case 'wallet.changed': return context.method === 'maya' && context.linkId === null;
      // The tick shows on Confirm for a card or wallet; each press flips it.
      case 'consent.toggle':
        return context.method !== 'checkout' && ((e as unknown as { consent: unknown }).consent !== null) === (context.renewalConsent === null);
      default: return true;
    }
  },
  invocations: {
    loadStatus: { done: [freeStatus, premiumStatus], error: [new ApiError('Something went wrong', 500)] },
    loadPlans: { done: [locale === 'en' ? plansFixture : [monthly, yearly]], error: [new ApiError('Network error')] },
    payWithCard: { done: [{}, { verificationUrl: THREE_DS }], error: [new ApiError(DECLINED, 402)] },
    payWithWallet: { done: [null], error: [new ApiError(DUPLICATE, 409)] },
    createCheckout: { done: [{ paymentLink: CHECKOUT_PAGE }], error: [new ApiError(DUPLICATE, 409)] },
  },
  render: ({ actors, inspect }, input) => {
    const queryClient = createQueryClient();
    // What the browser keeps with the history entry across a reload (the wizard writes it with each step).
    window.history.replaceState(input?.card ? choiceState({ card: input.card, linkId: null }) : null, '');
    const redirect = vi.fn();
    const confirmations: AnyActorRef[] = [];
    // Until the first 'wallet.changed' the viewer has no link yet and the lookup waits; after it, the link is there.
    const walletLookup = { pending: [] as Array<(link: WalletLink) => void>, linked: false };
    const children = {
      loadDefaultCard: fromPromise(async () => savedVisa),
      loadWalletLink: fromPromise<WalletLink | null>(({ signal }) =>
        walletLookup.linked
          ? Promise.resolve(walletLinkFixture)
          : new Promise((resolve) => {
              walletLookup.pending.push(resolve);
              signal.addEventListener('abort', () => walletLookup.pending.splice(walletLookup.pending.indexOf(resolve), 1));
            })),
    };
    const run = renderSubscriptionView(<SubscribePage />, {
      // An address the spec does not know: format() would not write it, the browser would.
      path: input!.walletLinkStatus === 'invalid' ? `${format(input!)}&wallet-link-status=bogus` : format(input!),
      queryClient,
      overrides: {
        actors: { ...cachingActors(actors.actors, queryClient, { loadPlans: queryKeys.plans }), ...children },
        actions: {
          redirect: (_: unknown, params: { url: string }) => redirect(params.url),
        },
        inspect,
      },
    });
    return { ...run, redirect, confirmations, walletLookup } as Run;
  },
  executors: {
    'plan.select': async (run, event) => run.user.click(step().getByRole('button', { name: m.choose({ planName: event.plan.name }) })),
    'method.select': async (run, event) => {
      const name = METHOD_LABELS[event.method]();
      await run.user.click(step().getByRole('radio', { name }));
    },
    // The card form with the saved Visa in use: its Continue chooses it.
    'card.chosen': async (run) => {
      const form = within(await screen.findByRole('form', { name: m.card_details() }));
      await run.user.click(await form.findByRole('button', { name: m.continue_label() }));
    },
    // The wallet panel's lookup answers with the viewer's link; the panel reports it to the wizard.
    'wallet.changed': async (run) => {
      await waitFor(() => expect(run.walletLookup.pending).toHaveLength(1));
      run.walletLookup.linked = true;
      run.walletLookup.pending.shift()!(walletLinkFixture);
    },
    'step.continue': async (run) => run.user.click(step().getByRole('button', { name: m.continue_label() })),
    'step.back': async (run) => run.user.click(step().getByRole('button', { name: m.back() })),
    'step.edit': async (run, event) =>
      run.user.click(step().getByRole('button', { name: event.step === 1 ? m.edit_plan() : m.edit_payment_method() })),
    'payment.submit': async (run) => run.user.click(step().getByRole('button', { name: PAY() })),
    'consent.toggle': async (run) => run.user.click(step().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() })),
    // The person answers the question the page asks when checkout is picked.
    'checkout.confirm': async (run) => run.user.click(within(step().getByRole('alertdialog')).getByRole('button', { name: m.yes_i_m_sure() })),
    'checkout.decline': async (run) => run.user.click(within(step().getByRole('alertdialog')).getByRole('button', { name: m.cancel() })),
    'wizard.retry': async (run) => run.user.click(screen.getByRole('button', { name: m.try_again() })),
    'wizard.restart': async (run) => run.user.click(screen.getByRole('button', { name: m.choose_the_payment_method_again() })),
    'location.changed': (run, event) => run.location.navigate(format(event.location)),
  },
  states: {
    checkingStatus: () => {
      expect(screen.getByRole('status')).toHaveTextContent(m.loading_subscription_plans());
    },
    loadingPlans: () => {
      expect(screen.getByRole('status')).toHaveTextContent(m.loading_subscription_plans());
    },
    loadFailed: (_run, snapshot) => {
      expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.loadError!);
      expect(screen.getByRole('link', { name: m.back_to_subscription_2() })).toHaveAttribute('href', '/subscription');
    },
    invalidQuery: () => {
      expect(screen.getByRole('alert')).toHaveTextContent(INVALID_QUERY());
      // Not a dead end: a reload keeps the same address, so the page offers the step again.
      expect(screen.getByRole('button', { name: m.choose_the_payment_method_again() })).toBeEnabled();
      expect(screen.getByRole('link', { name: m.back_to_subscription_2() })).toBeInTheDocument();
    },
    selectPlan: async (run) => {
      expect(screen.getByRole('heading', { level: 1, name: m.subscribe_to_premium() })).toBeInTheDocument();
      expect(await step().findByRole('button', { name: m.choose({ planName: monthly.name }) })).toBeInTheDocument();
      // Each plan as the API answers it in this language: name, description, every feature.
      for (const plan of [monthly, yearly]) {
        const card = within(step().getByRole('article', { name: plan.name }));
        expect(card.getByText(plan.description)).toBeInTheDocument();
        for (const feature of plan.features) expect(card.getByText(feature)).toBeInTheDocument();
        expect(card.getByText(m.vat_included())).toBeInTheDocument(); // prices include VAT and say so (issue 34)
      }
      noEnglishPlanText();
      expect(step().getByText(`₱99 ${m.monthly()}`)).toBeInTheDocument();
      expect(step().getByText(`₱990 ${m.yearly()}`)).toBeInTheDocument();
      expect(step().getByText(m.popular())).toBeInTheDocument();
      expect(screen.getByText(m.select_plan(), { selector: '[aria-current="step"] span' })).toBeInTheDocument();
      expect(lastAddress(run).searchParams.get('step')).toBe('1');
    },
    paymentMethod: async (run, snapshot) => {
      const { context } = snapshot;
      expect(screen.getByRole('heading', { name: m.payment_method() })).toBeInTheDocument();
      noEnglishPlanText();
      const address = lastAddress(run);
      expect(address.searchParams.get('step')).toBe('2');
      expect(address.searchParams.get('plan')).toBe(context.plan);
      expect(address.searchParams.get('payment-method')).toBe(context.method);
      const name = context.method ? METHOD_LABELS[context.method as WizardMethod]() : null;
      if (name) expect(step().getByRole('radio', { name })).toBeChecked();
      else for (const radio of step().getAllByRole('radio')) expect(radio).not.toBeChecked();
      if (context.method === 'card') expect(await step().findByText('**** **** **** 1381')).toBeInTheDocument();
      if (context.method === 'checkout') expect(step().getByText(m.checkout_is_a_one_time_charge_for_2())).toBeInTheDocument();
      if (context.method === 'maya') {
        const panel = within(step().getByRole('group', { name: m.maya_wallet() }));
        if (context.walletLinkStatus === 'success') expect(panel.getByText(m.successfully_linked_your_account())).toBeInTheDocument();
        if (context.linkId) expect(await panel.findByText('maria@example.com')).toBeInTheDocument();
        else expect(panel.getByText(m.loading_your_maya_wallet())).toBeInTheDocument();
      }
    },
    'confirm.reviewing': (run, snapshot) => {
      const { context } = snapshot;
      const plan = context.selectedPlan!;
      expect(screen.getByRole('heading', { name: m.confirm() })).toBeInTheDocument();
      expect(step().getByText(plan.name)).toBeInTheDocument();
      expect(plan.name).toBe((plan.slug === 'monthly' ? monthly : yearly).name);
      // The price as the plan card writes it, and that it includes VAT (issue 34).
      const price = plan.slug === 'monthly' ? `₱99 ${m.monthly()}` : `₱990 ${m.yearly()}`;
      expect(planPrice(plan)).toBe(price);
      expect(step().getByText(m.price_vat_included({ price }))).toBeInTheDocument();
      const method = { card: 'Visa **** **** **** 1381', maya: m.maya_wallet(), checkout: m.checkout() }[context.method as WizardMethod];
      expect(step().getByText(method)).toBeInTheDocument();
      expect(step().getByText(nextSteps(plan, context.method as WizardMethod))).toBeInTheDocument();
      if (locale === 'en') expect(step().getByText(context.method === 'checkout' ? /does not renew automatically/ : /renews automatically/)).toBeInTheDocument();
      noEnglishPlanText();
      expect(step().queryByRole('alertdialog')).toBeNull();
      expect(step().getByRole('button', { name: PAY() })).toBeEnabled();
      expect(lastAddress(run).searchParams.get('step')).toBe('3');
      // product.md#renewal-consent: a card or wallet says when and at what price it renews, with the tick; checkout has none.
      if (context.method === 'checkout') {
        expect(step().queryByRole('checkbox')).toBeNull();
      } else {
        const text = purchaseConsentText(plan);
        expect(step().getByText(text)).toBeInTheDocument();
        if (locale === 'en') expect(text).toMatch(new RegExp(`^Renews automatically on \\d\\d/\\d\\d/\\d{4} at ${plan.slug === 'monthly' ? '₱99' : '₱990'} until you cancel\\. Cancel anytime on Subscription\\.$`));
        const box = step().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() });
        expect(box).toHaveProperty('checked', context.renewalConsent !== null);
        expect(box).not.toHaveAttribute('aria-invalid');
        expect(step().queryByText(m.please_agree_to_automatic_renewal())).toBeNull();
      }
    },
    // Pay pressed without the tick: nothing is paid; the box says why, and has the focus.
    'confirm.consentMissing': async (run, snapshot) => {
      const box = step().getByRole('checkbox', { name: m.i_agree_to_automatic_renewal() });
      expect(box).not.toBeChecked();
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(box).toHaveAccessibleDescription(new RegExp(`^${m.please_agree_to_automatic_renewal().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      await waitFor(() => expect(box).toHaveFocus());
      expect(step().getByRole('button', { name: PAY() })).toBeEnabled();
      expect(run.redirect).not.toHaveBeenCalled();
      expect(lastAddress(run).searchParams.get('step')).toBe('3');
      expect(snapshot.context.method).not.toBe('checkout');
    },
    // product.md#checkout-confirmation: asked in the page with the spec's words when checkout is picked (not by confirm()).
    checkoutQuestion: async (run, snapshot) => {
      const dialog = step().getByRole('alertdialog', { name: m.pay_by_checkout() });
      expect(dialog).toHaveAccessibleDescription(m.are_you_sure_you_want_to_proceed());
      await waitFor(() => expect(within(dialog).getByRole('button', { name: m.cancel() })).toHaveFocus());
      expect(step().getByRole('radio', { name: m.checkout() })).not.toBeChecked();
      expect(lastAddress(run).searchParams.get('payment-method')).toBe(snapshot.context.method);
      expect(run.redirect).not.toHaveBeenCalled();
    },
    'confirm.creatingCheckout': () => {
      expect(step().getByRole('button', { name: m.processing() })).toBeDisabled();
      expect(step().getByRole('button', { name: m.edit_plan() })).toBeDisabled();
    },
    'confirm.payingByCard': () => {
      expect(step().getByRole('button', { name: m.processing() })).toBeDisabled();
      expect(step().getByRole('button', { name: m.back() })).toBeDisabled();
    },
    'confirm.payingByWallet': () => {
      expect(step().getByRole('button', { name: m.processing() })).toBeDisabled();
    },
    leaving: async (run, snapshot) => {
      const address = run.location.history.at(-1)!;
      if (run.redirect.mock.calls.length) {
        expect([THREE_DS, CHECKOUT_PAGE]).toContain(run.redirect.mock.calls[0]![0]);
      } else if (address.startsWith('/payment?status=failed')) {
        // The plan and method tried go with the result, for its "Try again".
        expect(address).toBe(`/payment?status=failed&plan=${snapshot.context.plan}&payment-method=${snapshot.context.method}`);
        await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/declined|already in progress/));
      } else {
        expect(['/subscription', '/payment?status=success']).toContain(address);
      }
    },
  },
});
}

// The same paths in each language (issue 37): in Bisaya the plans are the API's Bisaya answer, and every
// step is checked for English plan text.
for (const locale of ['en', 'ceb'] satisfies Locale[]) {
  describe(`in ${locale}`, () => {
    beforeAll(() => overwriteGetLocale(() => locale));
    afterAll(() => overwriteGetLocale(() => 'en'));
    it('renders in that language', () => expect(currentLocale()).toBe(locale));
    subscribeModel(locale);
  });
}
