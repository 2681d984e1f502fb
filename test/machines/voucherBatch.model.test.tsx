import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { voucherBatchMachine, type VoucherBatchRequest } from '../../src/machines/voucherBatch/voucherBatch.machine';
import { describeModel } from '../support/model';
import { json, ok, operatorSession, opsMe, renderOps } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());


const plans = [{ id: 1, slug: 'monthly', name: 'Monthly', description: '', price: '99.00', currency: 'PHP', duration: '1', billingCycle: 'month', trialDays: 0, sortOrder: 1, isActive: true, features: [], popular: false }];
const form = () => within(screen.getByRole('form', { name: 'Mint voucher codes' }));

describeModel('voucherBatch', {
  machine: voucherBatchMachine,
  input: { today: '2026-11-27' },
  events: {
    'form.submit': [
      { type: 'form.submit', values: { partner: 'Gaisano Mall', count: '50', days: '30', planId: '1', expiresOn: '2099-12-31', limitKind: 'limit', useLimit: '3', reason: 'Christmas promo with Gaisano' } },
      { type: 'form.submit', values: { partner: '', count: '9000', days: '30', planId: '', expiresOn: '', limitKind: 'account', useLimit: '', reason: 'no' } },
    ],
  },
  invocations: {
    mintBatch: { done: [{ id: 'batch-1' }], error: [new ApiError('Name the partner (1 to 100 characters).', 400)] },
  },
  render: async (tools) => {
    const run = renderOps({
      path: '/ops/vouchers', stored: operatorSession('finance'), overrides: { actors: tools.actors.actors, inspect: tools.inspect },
      respond: (url) => {
        if (url.endsWith('/api/v1/ops/me')) return ok(opsMe('finance'));
        if (url.endsWith('/api/v1/ops/voucher-batches')) return ok({ batches: [] });
        if (url.includes('/subscription/plans')) return ok(plans);
        return json(500, { success: false, message: 'Not in this test', data: null });
      },
    });
    await screen.findByRole('option', { name: 'Monthly' });
    return { ...run, tools };
  },
  executors: {
    'form.submit': async (run, event) => {
      const { values } = event;
      const type = async (name: string, value: string) => {
        const field = form().getByRole('textbox', { name });
        await run.user.clear(field);
        if (value) await run.user.type(field, value);
      };
      await type('Partner', values.partner);
      await type('How many codes (1 to 5000)', values.count);
      await type('Premium days per code (1 to 366)', values.days);
      await run.user.selectOptions(form().getByRole('combobox', { name: 'Plan' }), values.planId || 'Choose a plan');
      fireEvent.change(form().getByLabelText('Last day to redeem (Manila)'), { target: { value: values.expiresOn } });
      await run.user.click(form().getByRole('radio', { name: values.limitKind === 'limit' ? 'Each code a number of times' : 'One code per account' }));
      if (values.limitKind === 'limit') await type('Uses per code', values.useLimit);
      await type('Reason (written to the audit log)', values.reason);
      await run.user.click(form().getByRole('button', { name: 'Mint codes' }));
    },
  },
  states: {
    'form.editing': () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Vouchers' })).toBeInTheDocument();
      expect(form().getByRole('textbox', { name: 'Premium days per code (1 to 366)' })).toHaveValue('30');
      expect(form().getByRole('radio', { name: 'One code per account' })).toBeChecked();
      expect(screen.getByText('No batches yet.')).toBeInTheDocument();
    },
    'form.invalid': () => {
      expect(form().getByText('Name the partner')).toBeInTheDocument();
      expect(form().getByText('Enter 1 to 5000 codes')).toBeInTheDocument();
      expect(form().getByText('Choose the last day to redeem')).toBeInTheDocument();
      expect(form().getByText('Give a reason of 3 to 500 characters')).toBeInTheDocument();
      expect(form().getByRole('textbox', { name: 'How many codes (1 to 5000)' })).toHaveValue('9000');
    },
    'form.rejected': () => {
      expect(form().getByRole('alert')).toHaveTextContent('Name the partner (1 to 100 characters).');
      // Everything typed is still there.
      expect(form().getByRole('textbox', { name: 'Partner' })).toHaveValue('Gaisano Mall');
      expect(form().getByRole('textbox', { name: 'Uses per code' })).toHaveValue('3');
      expect(form().getByRole('textbox', { name: 'Reason (written to the audit log)' })).toHaveValue('Christmas promo with Gaisano');
    },
    minting: (run) => {
      expect(form().getByRole('button', { name: 'Minting...' })).toBeDisabled();
      expect(run.tools.actors.inputs('mintBatch').at(-1)).toEqual({
        partner: 'Gaisano Mall', count: 50, days: 30, planId: 1, expiresOn: '2099-12-31', perAccount: false, useLimit: 3, reason: 'Christmas promo with Gaisano',
      } satisfies VoucherBatchRequest);
    },
    minted: async (run) => {
      await waitFor(() => expect(run.location.history.at(-1)).toBe('/ops/vouchers/batch-1'));
    },
  },
});
