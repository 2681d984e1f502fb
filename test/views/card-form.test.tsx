/**
 * The card form's messages (issue 19): a field's error goes once the field is corrected (it stayed
 * until the next Continue), and an empty form marks each empty field instead of one line.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { CARD_MESSAGES, CARD_REQUIRED } from '../../src/lib/card';
import { CardForm } from '../../src/views/parts/CardForm';
import { typeInto } from '../support/flow';
import { renderSubscriptionView } from '../support/subscription';

function renderForm() {
  const run = renderSubscriptionView(<CardForm submitLabel="Continue" onChosen={vi.fn()} />, {
    path: '/subscription/payment?plan=monthly&step=2&payment-method=card',
    overrides: { actors: { loadDefaultCard: fromPromise(async () => null) } },
  });
  return run;
}

describe('card form', () => {
  it('"Card expired" goes as soon as the expiry is corrected, and the other fields keep theirs', async () => {
    const run = renderForm();
    await screen.findByLabelText('Card Number');
    await typeInto(run, 'Card Number', '5123456789012346');
    await typeInto(run, 'Expiry (MM/YY)', '0120');
    await typeInto(run, 'CVC', '12');
    await run.user.click(screen.getByRole('button', { name: 'Continue' }));
    const expiry = screen.getByLabelText('Expiry (MM/YY)');
    await waitFor(() => expect(expiry).toHaveAccessibleDescription(CARD_MESSAGES.expired()));
    expect(screen.getByLabelText('CVC')).toHaveAttribute('aria-invalid', 'true');
    await typeInto(run, 'Expiry (MM/YY)', '1230');
    expect(expiry).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(CARD_MESSAGES.expired())).toBeNull();
    // The CVC was not touched: its message stays until it is.
    expect(screen.getByLabelText('CVC')).toHaveAttribute('aria-invalid', 'true');
  });

  it('an empty form marks each field, focuses the first, and says "Please fill in all the fields" once (the toast)', async () => {
    const run = renderForm();
    await screen.findByLabelText('Card Number');
    await run.user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByLabelText('Card Number')).toHaveFocus());
    expect(screen.getByLabelText('Card Number')).toHaveAccessibleDescription(CARD_REQUIRED.number());
    expect(screen.getByLabelText('Expiry (MM/YY)')).toHaveAccessibleDescription(CARD_REQUIRED.expiry());
    expect(screen.getByLabelText('CVC')).toHaveAccessibleDescription(CARD_REQUIRED.cvc());
    await waitFor(() => expect(screen.getAllByText(CARD_MESSAGES.fillAll())).toHaveLength(1));
  });
});
