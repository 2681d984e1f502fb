import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { ApiError } from '../../src/api/http';
import { leaveFor } from '../../src/lib/leave';
import { renewNowMachine } from '../../src/machines/renewNow/renewNow.machine';
import SubscriptionPage from '../../src/views/pages/SubscriptionPage';
import { describeModel } from '../support/model';
import { fakeServer, renderSubscriptionView, renewalDueStatus } from '../support/subscription';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));

const CHECKOUT_LINK = 'https://payments.example/checkout/next-period';
const REFUSED = 'A payment is already in progress. Finish it, or try again after it expires in an hour.';
// product.md#dates: Asia/Manila, month/day/year, 12-hour clock.
const ENDS = '01/15/2027 8:00 am';
const notice = () => within(screen.getByRole('region', { name: 'Time to renew' }));

describeModel('renewNow', {
  machine: renewNowMachine,
  events: {
    'renew.start': [{ type: 'renew.start', subscriptionId: renewalDueStatus.subscriptionId! }],
  },
  invocations: {
    renewWithCheckout: { done: [{ paymentLink: CHECKOUT_LINK }], error: [new ApiError(REFUSED, 409)] },
  },
  render: ({ actors, inspect }) => {
    vi.mocked(leaveFor).mockClear();
    return renderSubscriptionView(<SubscriptionPage />, {
      path: '/subscription', server: fakeServer(renewalDueStatus), overrides: { actors: actors.actors, inspect },
    });
  },
  executors: {
    'renew.start': async (run) => run.user.click(await screen.findByRole('button', { name: 'Renew now' })),
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
    opening: () => {
      expect(notice().getByRole('button', { name: 'Opening checkout...' })).toBeDisabled();
    },
    leaving: async () => {
      // The next period is paid on Maya's page: the app leaves for it and keeps the button busy meanwhile.
      await waitFor(() => expect(vi.mocked(leaveFor).mock.calls).toEqual([[CHECKOUT_LINK]]));
      expect(notice().getByRole('button', { name: 'Opening checkout...' })).toBeDisabled();
    },
    rejected: async () => {
      expect(notice().getByRole('alert')).toHaveTextContent(REFUSED);
      // The error toast carries the same message; the button may be pressed again.
      await waitFor(() => expect(screen.getAllByText(REFUSED)).toHaveLength(2));
      expect(notice().getByRole('button', { name: 'Renew now' })).toBeEnabled();
      expect(leaveFor).not.toHaveBeenCalled();
    },
  },
});
