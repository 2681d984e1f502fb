/**
 * The payment screens in Bisaya (issue 20): with the language set to `ceb`, the card form, the wizard's first
 * step and the change-plan page (with its dialog) say the catalog's Bisaya, and the card rules speak it too.
 * The language is read when a text is said, so switching it at run time is enough (no module holds a text).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { overwriteGetLocale } from '../../src/i18n';
import ChangePlanPage from '../../src/views/pages/ChangePlanPage';
import SubscribePage from '../../src/views/pages/SubscribePage';
import { CardForm } from '../../src/views/parts/CardForm';
import { typeInto } from '../support/flow';
import { planChangeServer, renderPlanChangeView } from '../support/planChange';
import { freeStatus, renderSubscriptionView } from '../support/subscription';

beforeEach(() => overwriteGetLocale(() => 'ceb'));
afterEach(() => overwriteGetLocale(() => 'en'));

describe('payment screens in Bisaya', () => {
  it('the card form: Bisaya labels, and the card rules say what to fix in Bisaya', async () => {
    const run = renderSubscriptionView(<CardForm submitLabel="Padayon" onChosen={vi.fn()} />, {
      path: '/subscription/payment?plan=monthly&step=2&payment-method=card',
      overrides: { actors: { loadDefaultCard: fromPromise(async () => null) } },
    });
    const form = within(await screen.findByRole('form', { name: 'Detalye sa card' }));
    expect(form.getByText('Isulod ang detalye sa bag-ong card:')).toBeInTheDocument();
    expect(form.getByLabelText('I-save isip default nga paagi sa pagbayad')).toBeChecked();

    // An empty form: each field says what it needs, and the toast asks for all of them.
    await run.user.click(form.getByRole('button', { name: 'Padayon' }));
    expect(form.getByLabelText('Numero sa Card')).toHaveAccessibleDescription('Isulod ang numero sa card');
    expect(form.getByLabelText('Pag-expire (MM/YY)')).toHaveAccessibleDescription('Isulod ang petsa sa pag-expire (MM/YY)');
    expect(await screen.findByText('Palihug pun-a ang tanang field')).toBeInTheDocument();

    // An expired card.
    await typeInto(run, 'Numero sa Card', '5123456789012346');
    await typeInto(run, 'Pag-expire (MM/YY)', '0120');
    await typeInto(run, 'CVC', '123');
    await run.user.click(form.getByRole('button', { name: 'Padayon' }));
    await waitFor(() => expect(form.getByLabelText('Pag-expire (MM/YY)')).toHaveAccessibleDescription('Expired na ang card'));
    expect(form.getByLabelText('Brand sa card: Mastercard')).toBeInTheDocument();
  });

  it("the wizard's first step, then the payment methods", async () => {
    const run = renderPlanChangeView(<SubscribePage />, { path: '/subscription/payment', server: planChangeServer(freeStatus) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mag-subscribe sa Premium' })).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Mga Lakang' }));
    expect(steps.getByText('Pilia ang Plan')).toBeInTheDocument();
    expect(steps.getByText('Paagi sa Pagbayad')).toBeInTheDocument();
    expect(steps.getByText('Kumpirmaha')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Pilia ang Plan' })).toBeInTheDocument();
    expect(screen.getByText('Sikat')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Balik sa Subscription' })).toBeInTheDocument();

    await run.user.click(await screen.findByRole('button', { name: 'Pilia ang Monthly' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Paagi sa Pagbayad' })).toBeInTheDocument();
    const methods = within(screen.getByRole('group', { name: 'Unsaon nimo pagbayad?' }));
    expect(methods.getByRole('radio', { name: 'Credit/Debit' })).toHaveAccessibleDescription('Visa, Mastercard o JCB');
    await run.user.click(methods.getByRole('radio', { name: 'Checkout' }));
    // The spec's question (English, letter for letter, in the catalog's Bisaya here), asked in the page.
    const question = await screen.findByRole('alertdialog', { name: 'Magbayad pinaagi sa Checkout?' });
    await run.user.click(within(question).getByRole('button', { name: 'Oo, sigurado ko' }));
    expect(await screen.findByText(/^Sa Checkout, kausa ra ka singilon/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Balik' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Padayon' })).toBeInTheDocument();
  });

  it('the change-plan page and its dialog', async () => {
    const run = renderPlanChangeView(<ChangePlanPage />, { path: '/subscription/change-plan' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pilia ang Imong Plan' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Kasamtangang Paagi sa Pagbayad' })).toBeInTheDocument();
    expect(screen.getByText(/^Ang pag-ilis sa subscription plan mag-epekto dayon/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kasamtangang Plan' })).toBeDisabled();

    // No plan selected: the toast in Bisaya.
    await run.user.click(screen.getByRole('button', { name: 'Ilisan ang Plan' }));
    expect(await screen.findByText('Palihug pagpili og plan')).toBeInTheDocument();

    await run.user.click(screen.getByRole('button', { name: 'Pilia ang Plan' }));
    expect(screen.getByText('✓ Napili')).toBeInTheDocument();
    await run.user.click(screen.getByRole('button', { name: 'Ilisan ang Plan' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Sigurado ka nga ilisan nimo ang imong plan?' }));
    expect(dialog.getByText(/^Mobalhin ka sa Yearly nga plan\./)).toBeInTheDocument();
    const facts = within(await dialog.findByLabelText('Unsay mausab'));
    expect(facts.getByText('Singilon karon')).toBeInTheDocument();
    expect(facts.getByText('20 ka adlaw')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Oo, sigurado ko' })).toBeEnabled();
    expect(dialog.getByRole('button', { name: 'Ayaw na lang' })).toBeEnabled();
    expect(dialog.getByRole('button', { name: 'Isira' })).toBeInTheDocument();
  });
});
