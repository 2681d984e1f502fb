/**
 * Review new-viewer-walk findings 3 and 4 in the views: a scheduled move down on the subscription card
 * (product.md#scheduled-downgrade), and the redeem page saying what a voucher does to a paid plan before
 * it is redeemed (product.md#voucher-on-renewing); in English and in Bisaya.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale } from '../../src/i18n';
import RedeemVoucherPage from '../../src/views/pages/RedeemVoucherPage';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import {
  canceledStatus, fakeServer, freeStatus, pastDueStatus, premiumStatus, renderSubscriptionView, scheduledStatus, voucherStatus, walletStatus,
} from '../support/subscription';

afterEach(() => overwriteGetLocale(() => 'en'));

const redeemPage = (status = premiumStatus) =>
  renderSubscriptionView(<RedeemVoucherPage />, { path: '/subscription/redeem-voucher', server: fakeServer(status) });

describe('the scheduled move down on the subscription card', () => {
  it('says the day, the new price and Keep {plan}; nothing without a scheduled change', async () => {
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: fakeServer(scheduledStatus) });
    const line = within(await screen.findByRole('region', { name: 'Your plan changes to Monthly on 01/15/2027, at ₱99.' }, { timeout: 5000 }));
    expect(line.getByRole('button', { name: 'Keep Yearly' })).toBeEnabled();
    expect(screen.getByText('Premium · renews 01/15/2027 for ₱99 on Maya Wallet')).toBeInTheDocument();
  });

  it('is absent without one (the next charge is the plan’s own price)', async () => {
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: fakeServer(walletStatus) });
    expect(await screen.findByText('Premium · renews 01/15/2027 for ₱990 on Maya Wallet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Keep / })).not.toBeInTheDocument();
  });

  it('in Bisaya', async () => {
    overwriteGetLocale(() => 'ceb');
    renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server: fakeServer(scheduledStatus) });
    const line = within(await screen.findByRole('region', { name: 'Mailis ang imong plan ngadto sa Monthly sa Enero 15, 2027, sa ₱99.' }, { timeout: 5000 }));
    expect(line.getByText('Hangtod niana, magpabilin ang imong Yearly. Walay gisingil para sa pag-ilis.')).toBeInTheDocument();
    expect(line.getByRole('button', { name: 'Ipabilin ang Yearly' })).toBeEnabled();
  });
});

describe('redeem voucher on a paid plan: what happens is said before redeeming', () => {
  it('a renewing card plan keeps renewing on its card after the voucher’s days', async () => {
    redeemPage(premiumStatus);
    expect(await screen.findByText(
      "You have the Monthly plan, paid until 01/15/2027. The voucher's days are added after that date, then your plan renews with Visa **** 1381 as before.",
    )).toBeInTheDocument();
    // The spec's sentence stays.
    expect(screen.getByText('Enter your voucher code to activate your subscription')).toBeInTheDocument();
  });

  it('an overdue renewal: the voucher’s days start today, then it renews on its method', async () => {
    redeemPage(pastDueStatus);
    expect(await screen.findByText(
      "The renewal of your Monthly plan is overdue. The voucher's days start today instead, then your plan renews with Visa **** 1381.",
    )).toBeInTheDocument();
  });

  it('a checkout (here canceled) or voucher plan is replaced, and says it will not renew', async () => {
    redeemPage(canceledStatus);
    expect(await screen.findByText(
      'You have the Monthly plan until 02/01/2027. The voucher replaces it: its days are added to that date, and your Premium then does not renew by itself.',
    )).toBeInTheDocument();
  });

  it('a voucher subscription is replaced too', async () => {
    redeemPage(voucherStatus);
    expect(await screen.findByText(/^You have the Voucher plan until 01\/10\/2028\. The voucher replaces it/)).toBeInTheDocument();
  });

  it('a FREE viewer sees only the spec’s sentence', async () => {
    const run = redeemPage(freeStatus);
    await screen.findByText('Enter your voucher code to activate your subscription');
    await run.queryClient.refetchQueries();
    expect(screen.queryByText(/voucher's days|The voucher replaces/)).not.toBeInTheDocument();
  });

  it('in Bisaya', async () => {
    overwriteGetLocale(() => 'ceb');
    redeemPage(premiumStatus);
    expect(await screen.findByText(
      'Naa kay Monthly nga plan, bayad na hangtod Enero 15, 2027. Idugang ang mga adlaw sa voucher human niana nga petsa, dayon ma-renew ang imong plan gamit ang Visa **** 1381 sama sa kaniadto.',
    )).toBeInTheDocument();
  });
});
