/** The wizard's rules that a path walk does not show by itself: exact texts, fallbacks, the address. */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { choiceState, format, parse, readChoice, walletReturnPath, type SubscribeLocation } from '../../src/machines/subscribe/subscribe.address';
import { CHECKOUT_CONFIRMATION, subscribeMachine, WALLET_REQUIRED, type SubscribeInput } from '../../src/machines/subscribe/subscribe.machine';
import { walletReturnUrls } from '../../src/machines/walletLink/walletLink.machine';
import { plansFixture } from '../support/payments';
import { freeStatus } from '../support/subscription';

const at = (location: Partial<SubscribeLocation>): SubscribeLocation => ({ plan: null, step: 1, method: null, walletLinkStatus: null, ...location });

function start(input: SubscribeInput) {
  const goTo = vi.fn();
  const notify = vi.fn();
  const createCheckout = vi.fn(async () => ({ paymentLink: 'https://maya.example/checkout' }));
  const machine = subscribeMachine.provide({
    actors: {
      loadStatus: fromPromise(async () => freeStatus),
      loadPlans: fromPromise(async () => plansFixture),
      createCheckout: fromPromise(createCheckout),
    },
    actions: { goTo: (_, params) => goTo(params), notify: (_, params) => notify(params), redirect: () => {} },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, goTo, notify, createCheckout };
}

describe('subscribe wizard', () => {
  it('asks with the exact spec §5 text when checkout is picked (in the page, never window.confirm), and not again on Pay', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const { actor, createCheckout } = start(at({ plan: 'monthly', step: 2, method: 'card' }));
    await waitFor(actor, (s) => s.matches('paymentMethod'));
    actor.send({ type: 'method.select', method: 'checkout' });
    expect(actor.getSnapshot().matches('checkoutQuestion')).toBe(true);
    expect(CHECKOUT_CONFIRMATION()).toBe('Are you sure you want to proceed with checkout method? Please note that your next subscription payment will be done manually.');
    actor.send({ type: 'checkout.decline' });
    expect(actor.getSnapshot().context.method).toBe('card');
    actor.send({ type: 'method.select', method: 'checkout' });
    actor.send({ type: 'checkout.confirm' });
    expect(actor.getSnapshot().context.method).toBe('checkout');
    actor.send({ type: 'step.continue' });
    actor.send({ type: 'payment.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(createCheckout).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();
    confirm.mockRestore();
  });

  it('refuses Continue with the wallet chosen and no link: "Please connect your Maya wallet to continue"', async () => {
    const { actor, notify } = start(at({ plan: 'monthly', step: 2, method: 'maya' }));
    await waitFor(actor, (s) => s.matches('paymentMethod'));
    actor.send({ type: 'step.continue' });
    expect(actor.getSnapshot().matches('paymentMethod')).toBe(true);
    expect(notify).toHaveBeenCalledWith({ kind: 'error', message: WALLET_REQUIRED });
    actor.send({ type: 'wallet.changed', linkId: 'link-1' });
    actor.send({ type: 'step.continue' });
    expect(actor.getSnapshot().matches('confirm')).toBe(true);
  });

  it('Confirm by card with no card kept with the history entry (a link from elsewhere) lands on step 2 and corrects the address in place', async () => {
    const { actor, goTo } = start(at({ plan: 'monthly', step: 3, method: 'card' }));
    await waitFor(actor, (s) => s.matches('paymentMethod'));
    expect(goTo).toHaveBeenLastCalledWith({ path: '/subscription/payment?plan=monthly&step=2&payment-method=card', replace: true, state: { wizard: { card: null, linkId: null } } });
  });

  it('a reload of Confirm finds the card or the wallet kept with the history entry and stays on Confirm, writing nothing', async () => {
    const card = { cardTokenId: 'tok_1', cardType: 'visa', last4: '1381' };
    const byCard = start({ ...at({ plan: 'monthly', step: 3, method: 'card' }), ...readChoice(choiceState({ card, linkId: null })) });
    await waitFor(byCard.actor, (s) => s.matches('confirm'));
    expect(byCard.actor.getSnapshot().context.card).toEqual(card);
    expect(byCard.goTo).not.toHaveBeenCalled();
    const byWallet = start({ ...at({ plan: 'monthly', step: 3, method: 'maya' }), ...readChoice(choiceState({ card: null, linkId: 'link-1' })) });
    await waitFor(byWallet.actor, (s) => s.matches('confirm'));
    expect(byWallet.goTo).not.toHaveBeenCalled();
    // Each step writes the choice with its history entry: back and forward keep it too.
    byWallet.actor.send({ type: 'step.back' });
    expect(byWallet.goTo).toHaveBeenLastCalledWith({ path: '/subscription/payment?plan=monthly&step=2&payment-method=maya', replace: false, state: { wizard: { card: null, linkId: 'link-1' } } });
  });

  it('a kept choice is read only when it is well formed, and only for its own method', async () => {
    expect(readChoice(null)).toEqual({ card: null, linkId: null });
    expect(readChoice({ wizard: { card: { cardTokenId: 'tok\u0000', cardType: 'visa', last4: '1381' }, linkId: 5 } })).toEqual({ card: null, linkId: null });
    expect(readChoice({ wizard: { card: { cardTokenId: 'tok', cardType: 'visa', last4: '13812' } } }).card).toBeNull();
    const card = { cardTokenId: 'tok_1', cardType: 'visa', last4: '1381' };
    const other = start({ ...at({ plan: 'monthly', step: 3, method: 'checkout' }), card, linkId: 'link-1' });
    await waitFor(other.actor, (s) => s.matches('confirm'));
    expect(other.actor.getSnapshot().context).toMatchObject({ card: null, linkId: null });
  });

  it('an address that does not fit offers to start the step again: the wallet step of its plan, written in place', async () => {
    const { actor, goTo } = start(at({ plan: 'monthly', step: 2, method: 'card', walletLinkStatus: 'success' }));
    await waitFor(actor, (s) => s.matches('invalidQuery'));
    actor.send({ type: 'wizard.restart' });
    expect(actor.getSnapshot().value).toBe('paymentMethod');
    expect(goTo).toHaveBeenLastCalledWith({ path: '/subscription/payment?plan=monthly&step=2&payment-method=maya', replace: true, state: { wizard: { card: null, linkId: null } } });
  });

  it('an unknown plan falls back to step 1', async () => {
    const { actor, goTo } = start(at({ plan: 'weekly', step: 3, method: 'checkout' }));
    await waitFor(actor, (s) => s.matches('selectPlan'));
    expect(goTo).toHaveBeenLastCalledWith({ path: '/subscription/payment?plan=weekly&step=1&payment-method=checkout', replace: true, state: { wizard: { card: null, linkId: null } } });
  });

  it('a wallet-link status on another method is an invalid return', async () => {
    const { actor } = start(at({ plan: 'monthly', step: 2, method: 'card', walletLinkStatus: 'success' }));
    await waitFor(actor, (s) => s.matches('invalidQuery'));
  });
});

describe('subscribe address', () => {
  it('reads the spec §2 parameters, with step 1 by default', () => {
    expect(parse('/subscription/payment', '')).toEqual(at({}));
    expect(parse('/subscription/payment', 'plan=yearly&step=3&payment-method=maya&wallet-link-status=canceled'))
      .toEqual(at({ plan: 'yearly', step: 3, method: 'maya', walletLinkStatus: 'canceled' }));
    expect(parse('/subscription/payment', 'step=9&payment-method=cash&wallet-link-status=maybe'))
      .toEqual(at({ step: 1, walletLinkStatus: 'invalid' }));
  });
  it('writes what it reads', () => {
    const location = at({ plan: 'monthly', step: 2, method: 'maya', walletLinkStatus: 'failed' });
    expect(parse('', format(location).split('?')[1]!)).toEqual(location);
  });
  it("Maya's return addresses are the base address, step 2 with the wallet, and the outcome", () => {
    expect(walletReturnUrls('https://sine.example.ph/', walletReturnPath('yearly'))).toEqual({
      success: 'https://sine.example.ph/subscription/payment?plan=yearly&step=2&payment-method=maya&wallet-link-status=success',
      failure: 'https://sine.example.ph/subscription/payment?plan=yearly&step=2&payment-method=maya&wallet-link-status=failed',
      cancel: 'https://sine.example.ph/subscription/payment?plan=yearly&step=2&payment-method=maya&wallet-link-status=canceled',
    });
  });
});
