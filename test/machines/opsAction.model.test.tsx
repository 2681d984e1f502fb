import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { opsActionMachine, type OpsActionRequest } from '../../src/machines/opsAction/opsAction.machine';
import { describeModel, type RunTools } from '../support/model';
import { consoleFetch, operatorSession, renderOps, timelineFixture, VIEWER_ID } from '../support/ops';

afterEach(() => vi.unstubAllGlobals());

type Run = ReturnType<typeof renderOps> & { tools: RunTools };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const panel = () => within(screen.getByRole('region', { name: 'Refund' }));
const lastRequest = (run: Run) => run.tools.actors.inputs('runAction').at(-1) as OpsActionRequest | undefined;

describeModel('opsAction', {
  machine: opsActionMachine,
  events: {
    'action.choose': [{ type: 'action.choose', target: { kind: 'reverse', id: 'rec-1', email: 'nena@example.com', reverseKind: 'refund', maxAmount: '99.00' } }],
    'form.submit': [
      { type: 'form.submit', values: { reason: 'Charged twice in November', amount: '49.50', days: '', when: 'period_end' } },
      { type: 'form.submit', values: { reason: '', amount: '120', days: '', when: 'period_end' } },
    ],
    'confirm.accept': [{ type: 'confirm.accept' }],
    'confirm.back': [{ type: 'confirm.back' }],
    'action.close': [{ type: 'action.close' }],
  },
  invocations: {
    runAction: { done: ['Refunded ₱49.50 (SUCCEEDED).'], error: [new ApiError('A reversal of this payment is already on its way.', 409)] },
  },
  render: async (tools) => {
    const run = renderOps({
      path: `/ops/viewers/${VIEWER_ID}`, stored: operatorSession('finance'), respond: consoleFetch(timelineFixture()),
      overrides: { actors: tools.actors.actors, inspect: tools.inspect },
    });
    await screen.findByRole('heading', { level: 1, name: 'Nena Cruz' });
    return { ...run, tools };
  },
  executors: {
    'action.choose': async (run) => run.user.click(screen.getByRole('button', { name: 'Refund' })),
    'form.submit': async (run, event) => {
      const amount = panel().getByRole('textbox', { name: 'Amount in pesos' });
      await run.user.clear(amount);
      await run.user.type(amount, event.values.amount);
      const reason = panel().getByRole('textbox', { name: 'Reason (written to the audit log)' });
      await run.user.clear(reason);
      if (event.values.reason) await run.user.type(reason, event.values.reason);
      await run.user.click(panel().getByRole('button', { name: 'Continue' }));
    },
    'confirm.accept': async (run) => run.user.click(panel().getByRole('button', { name: /^(Confirm|Try again)$/ })),
    'confirm.back': async (run) => run.user.click(panel().getByRole('button', { name: 'Back' })),
    'action.close': async (run) => run.user.click(panel().getByRole('button', { name: /^(Cancel|Close)$/ })),
  },
  states: {
    idle: () => {
      expect(screen.getByRole('button', { name: 'Refund' })).toBeEnabled();
      expect(screen.queryByRole('region', { name: 'Refund' })).not.toBeInTheDocument();
    },
    'reason.editing': async (_run, snapshot) => {
      const heading = panel().getByRole('heading', { name: 'Refund' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(panel().getByText('A refund of the full amount or part of it, up to ₱99.00.')).toBeInTheDocument();
      // Back from the confirmation: what was typed is still there.
      expect(panel().getByRole('textbox', { name: 'Amount in pesos' })).toHaveValue(snapshot.context.values.amount || '99.00');
      expect(panel().getByRole('textbox', { name: 'Reason (written to the audit log)' })).toHaveValue(snapshot.context.values.reason);
    },
    'reason.invalid': () => {
      expect(panel().getByText('A reason is required')).toBeInTheDocument();
      expect(panel().getByText('At most ₱99.00 is left to give back')).toBeInTheDocument();
      expect(panel().getByRole('textbox', { name: 'Amount in pesos' })).toHaveAttribute('aria-invalid', 'true');
      expect(panel().getByRole('textbox', { name: 'Amount in pesos' })).toHaveValue('120');
    },
    confirming: async (_run, snapshot) => {
      const sentence = panel().getByText('Refund ₱49.50 to nena@example.com?');
      await waitFor(() => expect(sentence.closest('p')).toHaveFocus());
      expect(panel().getByText('Reason: Charged twice in November')).toBeInTheDocument();
      expect(snapshot.context.requestKey).toMatch(UUID);
    },
    submitting: async (run, snapshot) => {
      expect(panel().getByRole('button', { name: 'Working...' })).toBeDisabled();
      // A second press does nothing: one request, with the key made when the confirmation opened.
      await run.user.click(panel().getByRole('button', { name: 'Working...' }));
      expect(lastRequest(run)).toEqual({
        target: { kind: 'reverse', id: 'rec-1', email: 'nena@example.com', reverseKind: 'refund', maxAmount: '99.00' },
        values: { reason: 'Charged twice in November', amount: '49.50', days: '', when: 'period_end' },
        requestKey: snapshot.context.requestKey,
      });
      expect(run.tools.actors.pending('runAction')).toBe(1);
    },
    done: async () => {
      const result = panel().getByRole('status');
      expect(result).toHaveTextContent('Refunded ₱49.50 (SUCCEEDED).');
      await waitFor(() => expect(result).toHaveFocus());
    },
    failed: (run, snapshot) => {
      expect(panel().getByRole('alert')).toHaveTextContent('A reversal of this payment is already on its way.');
      // Nothing typed is lost, and Try again sends the same key.
      expect(panel().getByText('Refund ₱49.50 to nena@example.com?')).toBeInTheDocument();
      expect(panel().getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(lastRequest(run)?.requestKey).toBe(snapshot.context.requestKey);
    },
  },
});
