/**
 * The privacy page (issue 36): what is collected, why, for how long, the rights and how to use them
 * (the account page), and the data protection officer from /app-config.json (DPO_EMAIL), marked when it
 * is the embedded sample; in both languages.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { overwriteGetLocale } from '../../src/i18n';
import PrivacyPage from '../../src/views/pages/PrivacyPage';
import { renderView } from '../support/render';

function serveConfig(dpoEmail: string, dpoSample: boolean) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    if (String(url) === '/app-config.json') return new Response(JSON.stringify({ baseUrl: 'http://localhost', dpoEmail, dpoSample }), { status: 200 });
    return new Response('{}', { status: 404 });
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  overwriteGetLocale(() => 'en');
});

describe('the privacy page', () => {
  it('says what, why, how long, the rights and where to use them, and names the configured officer', async () => {
    serveConfig('dpo@sinebisaya.ph', false);
    renderView(<PrivacyPage />, { path: '/legal/privacy' });
    for (const name of ['What we collect', 'Why we use it', 'How long we keep it', 'Your rights', 'How to use them', 'Data protection officer']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByText(/access and portability\), correct it, have it erased, and object to a use of it/)).toBeInTheDocument();
    expect(screen.getByText(/for 10 years, as the tax law \(BIR\) requires/)).toBeInTheDocument();
    // What each sign-in records (the devices list and the export show it; newcomer walk).
    expect(screen.getByText(/For each sign-in: the device and browser/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
    const officer = await screen.findByRole('link', { name: 'dpo@sinebisaya.ph' });
    expect(officer).toHaveAttribute('href', 'mailto:dpo@sinebisaya.ph');
    expect(screen.queryByText('(sample address: not a real contact)')).not.toBeInTheDocument();
    // The spec's sentence about children stays.
    expect(screen.getByText(/is not directed at children under 13/)).toBeInTheDocument();
  });

  it('marks the embedded sample address as a sample, and reads in Bisaya', async () => {
    overwriteGetLocale(() => 'ceb');
    serveConfig('dpo@sinebisaya.example', true);
    renderView(<PrivacyPage />, { path: '/legal/privacy' });
    expect(screen.getByRole('heading', { level: 2, name: 'Imong mga katungod' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(await screen.findByRole('link', { name: 'dpo@sinebisaya.example' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('(sampol nga address: dili tinuod nga kontak)')).toBeInTheDocument());
  });
});
