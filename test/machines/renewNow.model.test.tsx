import { screen, waitFor, within } from '@testing-library/react';
import type { AnyMachineSnapshot } from 'xstate';
import { expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { queryKeys } from '../../src/api/queries';
import { leaveFor } from '../../src/lib/leave';
import { renewNowMachine } from '../../src/machines/renewNow/renewNow.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel } from '../support/model';
import { fakeServer, pastDueStatus, renderSubscriptionView, renewalDueStatus } from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));

const CHECKOUT_LINK = 'https://payments.example/checkout/next-period';
const REFUSED = 'A payment is already in progress. Finish it, or try again after it expires in an hour.';
// product.md#dates: Asia/Manila, month/day/year, 12-hour clock.
const ENDS = '01/15/2027 8:00 am';
// Renew now is offered by a checkout subscription's reminder and beside Change Payment Method on a PAST_DUE one
// (product.md#dunning); both walk the same chart, told apart by the subscription being paid.
const NOTICES: Record<string, { status: typeof renewalDueStatus; title: string }> = {
  [renewalDueStatus.subscriptionId!]: { status: renewalDueStatus, title: 'Time to renew' },
  [pastDueStatus.subscriptionId!]: { status: pastDueStatus, title: 'Your renewal payment failed' },
};
const noticeOf = (snapshot: AnyMachineSnapshot) => NOTICES[snapshot.context.subscriptionId as string]!;
const notice = (snapshot: AnyMachineSnapshot) => within(screen.getByRole('region', { name: noticeOf(snapshot).title }));

describeModel('renewNow', {
  machine: renewNowMachine,
  events: {
    'renew.start': [
      { type: 'renew.start', subscriptionId: renewalDueStatus.subscriptionId! },
      { type: 'renew.start', subscriptionId: pastDueStatus.subscriptionId! },
    ],
  },
  serializeContext: (s) => String(s.context.subscriptionId),
  invocations: {
    // Maya's page (the hosted checkout, or the bank's 3-D Secure page), paid at once on the card or wallet, or not known yet.
    payRenewal: { done: [{ paymentLink: CHECKOUT_LINK }, { paid: true }, { pending: true }], error: [new ApiError(REFUSED, 409)] },
  },
  render: ({ actors, inspect }) => {
    vi.mocked(leaveFor).mockClear();
    return renderSubscriptionView(<SubscriptionPage />, {
      path: '/subscription', server: fakeServer(renewalDueStatus), overrides: { actors: actors.actors, inspect },
    });
  },
  executors: {
    'renew.start': async (run, event, tools) => {
      // The page shows the subscription whose notice is pressed (a refusal may have found it changed).
      const { status, title } = NOTICES[event.subscriptionId]!;
      if (run.server.status !== status) {
        run.server.status = status;
        await run.queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus });
      }
      const calls = tools.actors.inputs('payRenewal').length;
      const box = within(await screen.findByRole('region', { name: title }));
      await run.user.click(await box.findByRole('button', { name: 'Renew now' }));
      // The checkout asked for is this subscription's.
      await waitFor(() => expect(tools.actors.inputs('payRenewal').slice(calls)).toEqual([{ subscriptionId: event.subscriptionId }]));
    },
  },
  states: {
    idle: async () => {
      const box = within(await screen.findByRole('region', { name: 'Time to renew' }));
      expect(box.getByText(`Your Premium ends on ${ENDS}. Maya Checkout does not renew by itself.`)).toBeInTheDocument();
      expect(box.getByText(/lose no days/)).toBeInTheDocument();
      expect(box.getByRole('button', { name: 'Renew now' })).toBeEnabled();
      expect(box.queryByRole('alert')).not.toBeInTheDocument();
      expect(leaveFor).not.toHaveBeenCalled();
    },
    paying: (_run, snapshot) => {
      expect(notice(snapshot).getByRole('button', { name: 'Processing...' })).toBeDisabled();
    },
    leaving: async (_run, snapshot) => {
      // The period is paid on Maya's page: the app leaves for it and keeps the button busy meanwhile.
      await waitFor(() => expect(vi.mocked(leaveFor).mock.calls).toEqual([[CHECKOUT_LINK]]));
      expect(notice(snapshot).getByRole('button', { name: 'Processing...' })).toBeDisabled();
    },
    paid: async (run, snapshot) => {
      // Paid on the card or wallet: said, and the subscription read again (the notice goes once the server says so).
      expect(await screen.findByText('Paid. Your Premium continues.')).toBeInTheDocument();
      await waitFor(() => expect(run.server.calls.filter((call) => call === 'status').length).toBeGreaterThan(1));
      expect(notice(snapshot).getByRole('button', { name: 'Renew now' })).toBeEnabled();
      expect(leaveFor).not.toHaveBeenCalled();
    },
    processing: async (run, snapshot) => {
      expect(await screen.findByText('Your payment is being processed.')).toBeInTheDocument();
      await waitFor(() => expect(run.server.calls.filter((call) => call === 'status').length).toBeGreaterThan(1));
      expect(notice(snapshot).getByRole('button', { name: 'Renew now' })).toBeEnabled();
      expect(leaveFor).not.toHaveBeenCalled();
    },
    rejected: async (_run, snapshot) => {
      expect(notice(snapshot).getByRole('alert')).toHaveTextContent(REFUSED);
      // The error toast carries the same message; the button may be pressed again.
      await waitFor(() => expect(screen.getAllByText(REFUSED)).toHaveLength(2));
      expect(notice(snapshot).getByRole('button', { name: 'Renew now' })).toBeEnabled();
      if (snapshot.context.subscriptionId === pastDueStatus.subscriptionId) {
        // The other way to pay stays offered beside it.
        expect(notice(snapshot).getByRole('link', { name: 'Change Payment Method' })).toBeInTheDocument();
      }
      expect(leaveFor).not.toHaveBeenCalled();
    },
  },
});
