/**
 * The change-plan page with its real actors over a fake server: each call's failure (product.md#errors) shows
 * the message a person reads and leaves no spinner; the flow end to end with the server's numbers.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveFor } from '../../src/lib/leave';
import ChangePlanPage from '../../src/views/pages/ChangePlanPage';
import { planChangeServer, renderPlanChangeView, type PlanChangeCall, type PlanChangeServer } from '../support/planChange';
import { canceledStatus, json, premiumStatus } from '../support/subscription';
import { escapeFromDialog } from '../support/flow';

vi.mock('../../src/lib/leave', () => ({ leaveFor: vi.fn() }));
afterEach(() => vi.mocked(leaveFor).mockClear());

const failures = [
  { name: '500 with a message', answer: () => json(500, { success: false, message: 'The billing service is resting' }), message: 'The billing service is resting' },
  { name: '500 without a message', answer: () => new Response('<html>oops</html>', { status: 500 }), message: 'Something went wrong' },
  { name: 'network down', answer: () => { throw new TypeError(''); }, message: 'Network error' },
  { name: '401', answer: () => json(401, { success: false, message: 'Your session has expired' }), message: 'Your session has expired' },
] as const;

function showPage(setup?: (server: PlanChangeServer) => void, status = premiumStatus) {
  const server = planChangeServer(status);
  setup?.(server);
  return renderPlanChangeView(<ChangePlanPage />, { path: '/subscription/change-plan', server });
}

const dialog = () => within(screen.getByRole('alertdialog'));
const spinners = () => screen.queryAllByText(/^(Loading Subscription (Status|Plans)|Calculating your new plan|Changing)\.\.\.$/);

async function openDialog(run: ReturnType<typeof showPage>) {
  await run.user.click(await screen.findByRole('button', { name: 'Select Plan' }));
  await run.user.click(screen.getByRole('button', { name: 'Change Plan' }));
  return within(await screen.findByRole('alertdialog', { name: 'Are you sure you want to change your plan?' }));
}

describe('change plan: each call fails as spec §8 says, with no spinner left', () => {
  for (const failure of failures) {
    for (const call of ['status', 'plans'] as const satisfies PlanChangeCall[]) {
      it(`${call}: ${failure.name} shows '${failure.message}' and 'Try again'`, async () => {
        const run = showPage((server) => { server.answers[call] = failure.answer; });
        expect(await screen.findByText(failure.message, { selector: 'p[role="alert"]' })).toBeInTheDocument();
        expect(spinners()).toEqual([]);
        if (failure.name === '401') {
          await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
          return;
        }
        delete run.server.answers[call];
        await run.user.click(screen.getByRole('button', { name: 'Try again' }));
        expect(await screen.findByRole('button', { name: 'Select Plan' })).toBeEnabled();
        // The page's error box is gone (toasts of earlier tests may still be fading out).
        expect(screen.queryAllByRole('alert').filter((el) => el.tagName === 'P')).toEqual([]);
      });
    }

    it(`preview: ${failure.name} shows '${failure.message}' in the dialog; nothing can be confirmed blind`, async () => {
      const run = showPage((server) => { server.answers.preview = failure.answer; });
      const box = await openDialog(run);
      expect(await box.findByRole('alert')).toHaveTextContent(failure.message);
      expect(box.getByRole('button', { name: "Yes, I'm sure" })).toBeDisabled();
      expect(spinners()).toEqual([]);
      if (failure.name === '401') await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      expect(run.server.calls).not.toContain('update-plan');
    });

    it(`update-plan: ${failure.name} keeps the dialog open with '${failure.message}' and an error toast`, async () => {
      const run = showPage((server) => { server.answers['update-plan'] = failure.answer; });
      const box = await openDialog(run);
      // premium@ renews on its card: the tick first (product.md#renewal-consent).
      await run.user.click(await box.findByRole('checkbox', { name: 'I agree to automatic renewal' }));
      await run.user.click(await box.findByRole('button', { name: "Yes, I'm sure" }));
      if (failure.name === '401') await waitFor(() => expect(run.session.getSnapshot().value).toBe('signedOut'));
      expect(await box.findByRole('alert')).toHaveTextContent(failure.message);
      await waitFor(() => expect(screen.getAllByText(failure.message)).toHaveLength(2)); // the box and the toast
      expect(spinners()).toEqual([]);
      expect(box.getByRole('button', { name: "Yes, I'm sure" })).toBeEnabled();
      expect(run.location.history.at(-1)).toBe('/subscription/change-plan');
    });
  }
});

describe('change plan end to end on the page', () => {
  it('shows the server numbers, changes once, toasts the message and goes to /subscription', async () => {
    const run = showPage((server) => {
      server.answers['update-plan'] = () => json(200, { success: true, message: 'Your plan has been changed to Yearly.', data: { paymentMethod: 'MAYA_VAULT', paymentLink: null } });
    });
    const box = await openDialog(run);
    expect(await box.findByText('20 days')).toBeInTheDocument();
    // Without the tick nothing is sent: the box says why, focused (product.md#renewal-consent).
    await run.user.click(box.getByRole('button', { name: "Yes, I'm sure" }));
    const tick = box.getByRole('checkbox', { name: 'I agree to automatic renewal' });
    await waitFor(() => expect(tick).toHaveFocus());
    expect(tick).toHaveAttribute('aria-invalid', 'true');
    expect(run.server.calls).not.toContain('update-plan');
    await run.user.click(tick);
    await run.user.click(box.getByRole('button', { name: "Yes, I'm sure" }));
    await waitFor(() => expect(run.location.history.at(-1)).toBe('/subscription'));
    expect(await screen.findByText('Your plan has been changed to Yearly.')).toBeInTheDocument();
    expect(run.server.calls.filter((c) => c === 'update-plan')).toHaveLength(1);
    expect(vi.mocked(leaveFor)).not.toHaveBeenCalled();
  });

  it('a checkout subscription goes to the payment link the server answers', async () => {
    const link = 'http://localhost/sandbox/maya/pages/checkout/abc';
    const run = showPage((server) => {
      server.answers['update-plan'] = () => json(200, { success: true, message: 'Complete the payment to change your plan.', data: { paymentMethod: 'MAYA_CHECKOUT', paymentLink: link } });
    }, canceledStatus);
    const box = await openDialog(run);
    await run.user.click(await box.findByRole('button', { name: "Yes, I'm sure" }));
    await waitFor(() => expect(vi.mocked(leaveFor)).toHaveBeenCalledWith(link));
    // The dialog's exit (Ark's presence) ends a frame after leaveFor is called; with two test files on two cores that frame can come after the check.
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it("'Please select a plan' when Change Plan is pressed with no plan selected; no call is made", async () => {
    const run = showPage();
    await run.user.click(await screen.findByRole('button', { name: 'Change Plan' }));
    expect(await screen.findByText('Please select a plan')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(run.server.calls).not.toContain('preview');
  });

  it('Escape closes the dialog without a change and focus returns to Change Plan', async () => {
    const run = showPage();
    await openDialog(run);
    await dialog().findByRole('button', { name: "Yes, I'm sure" });
    await escapeFromDialog(run);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Change Plan' })).toHaveFocus());
    expect(run.server.calls).not.toContain('update-plan');
  });
});
