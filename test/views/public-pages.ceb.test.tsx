import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale } from '../../src/i18n';
import { AppRoutes } from '../../src/views/App';
import { renderView, startSession } from '../support/render';

const ENGLISH_QUESTIONS = [
  'What is Sine Bisaya?',
  'How much does PREMIUM cost?',
  'How can I pay?',
  'Where do I watch?',
  'Can I download videos?',
  'What happens if I cancel?',
  'How do I get help?',
];
const PREVAILS_EN = 'The English version of this page prevails in case of any difference.';

async function signedOutSession() {
  const session = startSession();
  await waitFor(() => expect(session.getSnapshot().value).toBe('signedOut'));
  return session;
}

describe('public pages in Bisaya (issue 20)', () => {
  beforeEach(() => overwriteGetLocale(() => 'ceb'));
  afterEach(() => overwriteGetLocale(() => 'en'));

  it('shows the landing page and its FAQ in Bisaya, with no English question left', async () => {
    renderView(<AppRoutes />, { session: await signedOutSession() });
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/^Maayong pag\u2011abot sa Sine Bisaya$/); // a non-breaking hyphen: the heading keeps the word whole (glossary.md, Hyphens)
    expect(screen.getByText('Mga pelikula ug serye nga Bisaya, gihimo dinhi sa atoa ug gitipigan para sa sunod nga kaliwatan.')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Isulod ang imong Email Address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Magsugod' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Kasagarang mga Pangutana' })).toBeInTheDocument();
    const triggers = screen.getAllByRole('button', { expanded: false }).filter((b) => b.closest('#faq'));
    expect(triggers).toHaveLength(7);
    expect(triggers[0]).toHaveTextContent('Unsa ang Sine Bisaya?');
    expect(screen.getByRole('button', { name: /Pila ang PREMIUM\?/ })).toBeInTheDocument();
    const faq = document.getElementById('faq')!.textContent!;
    for (const question of ENGLISH_QUESTIONS) expect(faq).not.toContain(question);
  });

  it.each([
    ['/legal/terms', 'Mga Termino ug Kondisyon', 'Palisiya sa Privacy'],
    ['/legal/privacy', 'Palisiya sa Privacy', 'Mga Termino ug Kondisyon'],
  ])('%s says in Bisaya that the English version prevails', async (path, title, otherPage) => {
    renderView(<AppRoutes />, { path, session: await signedOutSession() });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('ang English nga bersyon ang masunod');
    expect(screen.getAllByRole('link', { name: otherPage }).length).toBeGreaterThan(0);
  });

  it.each(['/legal/terms', '/legal/privacy'])('%s in English has no such note', async (path) => {
    overwriteGetLocale(() => 'en');
    renderView(<AppRoutes />, { path, session: await signedOutSession() });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.queryByText(PREVAILS_EN)).not.toBeInTheDocument();
  });
});
