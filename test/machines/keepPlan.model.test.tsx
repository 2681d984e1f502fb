import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/http';
import { keepPlanMachine } from '../../src/machines/keepPlan/keepPlan.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel } from '../support/model';
import { fakeServer, renderSubscriptionView, scheduledStatus } from '../support/subscription';

// product.md#dates: Asia/Manila, month/day/year.
const LINE = 'Your plan changes to Monthly on 01/15/2027, at ₱99.';
const KEPT = 'You keep the Yearly plan. It renews on 01/15/2027.';
const REFUSED = 'No plan change is scheduled for this subscription.';
const line = () => within(screen.getByRole('region', { name: LINE }));
let statusReads = 0;

describeModel('keepPlan', {
  machine: keepPlanMachine,
  events: {
    'keep.press': [{ type: 'keep.press', subscriptionId: scheduledStatus.subscriptionId! }],
  },
  invocations: {
    keepPlan: { done: [{ data: null, message: KEPT }], error: [new ApiError(REFUSED, 409)] },
  },
  render: ({ actors, inspect }) => {
    const server = fakeServer(scheduledStatus);
    const run = renderSubscriptionView(<SubscriptionPage />, { path: '/subscription', server, overrides: { actors: actors.actors, inspect } });
    return run;
  },
  executors: {
    'keep.press': async (run, event, tools) => {
      statusReads = run.server.calls.filter((call) => call === 'status').length;
      const calls = tools.actors.inputs('keepPlan').length;
      await run.user.click(await within(await screen.findByRole('region', { name: LINE })).findByRole('button', { name: 'Keep Yearly' }));
      // The undo asked for is this subscription's.
      await waitFor(() => expect(tools.actors.inputs('keepPlan').slice(calls)).toEqual([{ subscriptionId: event.subscriptionId }]));
    },
  },
  states: {
    idle: async () => {
      const box = within(await screen.findByRole('region', { name: LINE }, { timeout: 5000 }));
      expect(box.getByText(LINE)).toBeInTheDocument();
      expect(box.getByText('Until then you keep Yearly. Nothing has been charged for the change.')).toBeInTheDocument();
      expect(box.getByRole('button', { name: 'Keep Yearly' })).toBeEnabled();
      expect(box.queryByRole('alert')).not.toBeInTheDocument();
      // The next charge is the scheduled plan's price, on the subscription's method.
      expect(screen.getByText('Premium · renews 01/15/2027 for ₱99 on Maya Wallet')).toBeInTheDocument();
    },
    undoing: () => {
      expect(line().getByRole('button', { name: 'Keeping Yearly...' })).toBeDisabled();
    },
    kept: async (run) => {
      // The server's answer is toasted and the subscription read again.
      expect(await screen.findByText(KEPT)).toBeInTheDocument();
      await waitFor(() => expect(run.server.calls.filter((call) => call === 'status').length).toBeGreaterThan(statusReads));
      expect(line().queryByRole('alert')).not.toBeInTheDocument();
    },
    rejected: async (run) => {
      expect(line().getByRole('alert')).toHaveTextContent(REFUSED);
      // The error toast carries the same message; the subscription is read again; the button may be pressed again.
      await waitFor(() => expect(screen.getAllByText(REFUSED)).toHaveLength(2));
      await waitFor(() => expect(run.server.calls.filter((call) => call === 'status').length).toBeGreaterThan(statusReads));
      expect(line().getByRole('button', { name: 'Keep Yearly' })).toBeEnabled();
    },
  },
});
