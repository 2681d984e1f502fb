/** lazyPage, OnDemand and useLoadedWhenIdle (issue 21): code loaded ahead renders without suspending; code that cannot load does not empty the app. */
import { render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from '../../src/views/lazyPage';
import { OnDemand } from '../../src/views/parts/OnDemand';
import { useLoadedWhenIdle } from '../../src/views/useIdle';

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

  it('a failed load reaches the render as an error, as with React.lazy, and is forgotten: the next asks again', async () => {
    const importer = vi.fn<() => Promise<ReturnType<typeof pageModule>>>()
      .mockRejectedValueOnce(new Error('chunk gone'))
      .mockResolvedValueOnce(pageModule());
    const Page = lazyPage(importer);
    await expect(Page.load()).rejects.toThrow('chunk gone');
    await Page.load();
    expect(importer).toHaveBeenCalledTimes(2);
    render(<Suspense fallback={<p>Loading</p>}><Page name="Ana" /></Suspense>);
    expect(screen.getByText('Page of Ana')).toBeInTheDocument();
  });
});

describe('a part loaded on demand (OnDemand)', () => {
  it('that cannot load shows its fallback and says so, not an empty app; asked for again, it loads', async () => {
    const importer = vi.fn<() => Promise<ReturnType<typeof pageModule>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(pageModule());
    const Part = lazyPage(importer);
    const onFailed = vi.fn();
    const view = (attempt: number) => (
      <main>
        <h1>The page</h1>
        <OnDemand part={Part} fallback={<p>Stand-in</p>} onFailed={onFailed} resetKey={attempt}><Part name="Lito" /></OnDemand>
      </main>
    );
    const { rerender } = render(view(1));
    await waitFor(() => expect(onFailed).toHaveBeenCalledTimes(1));
    expect(screen.getByText('The page')).toBeInTheDocument();
    expect(screen.getByText('Stand-in')).toBeInTheDocument();
    rerender(view(2));
    expect(await screen.findByText('Page of Lito')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });
});

describe('useLoadedWhenIdle', () => {
  function Probe({ part, enabled }: { part: { load: () => Promise<unknown> }; enabled: boolean }) {
    return <p>{useLoadedWhenIdle(part, enabled).loaded ? 'loaded' : 'not yet'}</p>;
  }
  it('loads nothing while not enabled (a guest never needs the account menu), and loads once enabled', async () => {
    const part = { load: vi.fn(async () => undefined) };
    const { rerender } = render(<Probe part={part} enabled={false} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(part.load).not.toHaveBeenCalled();
    expect(screen.getByText('not yet')).toBeInTheDocument();
    rerender(<Probe part={part} enabled />);
    expect(await screen.findByText('loaded')).toBeInTheDocument();
    expect(part.load).toHaveBeenCalledTimes(1);
  });
});
