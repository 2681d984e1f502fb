import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { voucherMachine } from '../../src/machines/voucher/voucher.machine';
import RedeemVoucherPage from '../../src/views/pages/RedeemVoucherPage';
import { describeModel, type RunTools } from '../support/model';
import { fakeServer, freeStatus, redeemedFixture, renderSubscriptionView } from '../support/subscription';

type Run = ReturnType<typeof renderSubscriptionView> & { tools: RunTools };


const field = () => screen.getByLabelText('Voucher Code');

async function typeCode(run: Run, code: string) {
  await run.user.clear(field());
  if (code) await run.user.type(field(), code);
}

describeModel('voucher', {
  machine: voucherMachine,
  events: {
    // Typed in lower case: the field upper-cases as it goes (product.md#form-rules).
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
      expect(await screen.findByText('You have already redeemed this voucher', { selector: 'p:not(.Toastify *)' })).toBeInTheDocument();
      expect(field()).toHaveValue('BISAYA30'); // what was typed stays, upper-cased
      // The refusal stays at the field, linked to it, and focus is back on it (it was lost while the form was disabled).
      expect(field()).toHaveAccessibleDescription('You have already redeemed this voucher');
      expect(field()).toHaveAttribute('aria-invalid', 'true');
      await waitFor(() => expect(field()).toHaveFocus());
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

