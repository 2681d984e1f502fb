/** lazyPage (src/views/lazyPage.tsx, issue 21): a page whose code is loaded ahead renders without suspending. */
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from '../../src/views/lazyPage';

const pageModule = () => ({ default: ({ name }: { name: string }) => <p>Page of {name}</p> });

describe('a lazy page', () => {
  it('loaded ahead, renders at once: its fallback is never shown', async () => {
    const importer = vi.fn(async () => pageModule());
    const Page = lazyPage(importer);
    await Page.load();
    render(<Suspense fallback={<p>Loading</p>}><Page name="Maria" /></Suspense>);
    expect(screen.getByText('Page of Maria')).toBeInTheDocument();
    expect(screen.queryByText('Loading')).toBeNull();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('not loaded yet, suspends as React.lazy does, then shows the page; its code is asked for once', async () => {
    const importer = vi.fn(async () => pageModule());
    const Page = lazyPage(importer);
    render(<Suspense fallback={<p>Loading</p>}><Page name="Juan" /></Suspense>);
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('Page of Juan')).toBeInTheDocument();
    await Page.load();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('a failed load reaches the render as an error, as with React.lazy', async () => {
    const Page = lazyPage<object>(() => Promise.reject(new Error('chunk gone')));
    await expect(Page.load()).rejects.toThrow('chunk gone');
  });
});
