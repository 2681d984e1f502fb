import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import type { VoucherSubscription } from '../../src/api/schemas';
import { voucherMachine } from '../../src/machines/voucher/voucher.machine';
import RedeemVoucherPage from '../../src/views/pages/RedeemVoucherPage';
import { describeModel, type RunTools } from '../support/model';
import { demoUser } from '../support/render';
import { fakeServer, freeStatus, renderSubscriptionView } from '../support/subscription';

type Run = ReturnType<typeof renderSubscriptionView> & { tools: RunTools };

const redeemedFixture: VoucherSubscription = {
  id: 'sub-v1', userId: demoUser.id, subscriptionPlanId: 4, startDate: '2027-01-15T00:00:00.000Z', endDate: '2027-02-14T00:00:00.000Z',
  status: 'ACTIVE', paymentMethod: 'VOUCHER',
  details: {
    amount: '0.00', createdAt: '2027-01-15T00:00:00.000Z', voucherCode: 'BISAYA30', voucherCycle: 'day', voucherDuration: 30,
    subscriptionDays: 30, originalVoucherTerms: { cycle: 'month', price: '99.00', duration: '1' },
  },
  isTrial: false, trialStartDate: null, trialEndDate: null, pausedDate: null, pauseResumeDate: null, canceledDate: null,
  canceledReason: null, autoRenew: false, isUpgraded: false, previousPlanId: null,
  createdAt: '2027-01-15T00:00:00.000Z', updatedAt: '2027-01-15T00:00:00.000Z',
  user: { id: demoUser.id, email: demoUser.email, firstName: demoUser.firstName, lastName: demoUser.lastName },
  subscriptionPlan: { id: 4, type: 'VOUCHER', name: 'Voucher', price: '0.00', currency: 'PHP', billingCycle: 'voucher', duration: '30' },
};

const field = () => screen.getByLabelText('Voucher Code');

async function typeCode(run: Run, code: string) {
  await run.user.clear(field());
  if (code) await run.user.type(field(), code);
}

describeModel('voucher', {
  machine: voucherMachine,
  events: {
    // Typed in lower case: the field upper-cases as it goes (spec §5).
    'form.submit': [{ type: 'form.submit', code: 'bisaya30' }, { type: 'form.submit', code: '' }],
  },
  invocations: {
    redeemVoucher: { done: [redeemedFixture], error: [new ApiError('You have already redeemed this voucher', 409)] },
  },
  render: (tools) => ({
    ...renderSubscriptionView(<RedeemVoucherPage />, {
      path: '/subscription/redeem-voucher', server: fakeServer(freeStatus), overrides: { actors: tools.actors.actors, inspect: tools.inspect },
    }),
    tools,
  }),
  executors: {
    'form.submit': async (run, event) => {
      await typeCode(run, event.code);
      await run.user.click(screen.getByRole('button', { name: 'Redeem Voucher' }));
    },
  },
  states: {
    'form.editing': () => {
      expect(screen.getByRole('heading', { name: 'Redeem Voucher' })).toBeInTheDocument();
      expect(screen.getByText('Enter your voucher code to activate your subscription')).toBeInTheDocument();
      expect(field()).toHaveAttribute('placeholder', 'BISAYA30');
      expect(field()).toHaveValue('');
      expect(screen.queryByText('Voucher code is required')).not.toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(screen.getByText('Voucher code is required')).toBeInTheDocument();
      expect(field()).toHaveAttribute('aria-invalid', 'true');
    },
    'form.rejected': async () => {
      expect(await screen.findByText('You have already redeemed this voucher')).toBeInTheDocument();
      expect(field()).toHaveValue('BISAYA30'); // what was typed stays, upper-cased
      expect(screen.getByRole('button', { name: 'Redeem Voucher' })).toBeEnabled();
    },
    redeeming: (run) => {
      expect(screen.getByRole('button', { name: 'Redeeming...' })).toBeDisabled();
      expect(field()).toHaveValue('BISAYA30');
      expect(run.tools.actors.inputs('redeemVoucher').at(-1)).toEqual({ code: 'BISAYA30' });
      expect(run.location.history.at(-1)).toBe('/subscription/redeem-voucher');
    },
    redeemed: async (run) => {
      expect(await screen.findByText('Voucher redeemed successfully')).toBeInTheDocument();
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    },
  },
});

