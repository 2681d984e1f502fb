/** The boot script the build writes into every page (scripts/build/prerender.ts): it parses, and on a signed-in page it starts the page's reads and preloads its code (issue 21). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootScript } from '../../scripts/build/prerender';

const early = { '/subscription': { r: ['/api/v1/mobile/subscription/status', '/api/v1/mobile/payment/history'], m: ['/assets/SubscriptionPage-abc.js'], c: ['/assets/subscription-abc.css'] } };
const run = () => new Function(bootScript('dark-theme', 'light-theme', 'theme', 'token', early))();

afterEach(() => {
  localStorage.clear();
  delete (globalThis as { __sbEarly?: unknown }).__sbEarly;
  document.head.querySelectorAll('link[rel="modulepreload"], link[rel="preload"]').forEach((link) => link.remove());
  window.history.pushState({}, '', '/');
  vi.unstubAllGlobals();
});

describe('the boot script', () => {
  it('is valid JavaScript and applies the theme', () => {
    expect(() => new Function(bootScript('d', 'l', 'theme', 'token', early))).not.toThrow();
    run();
    expect(document.documentElement.classList.contains('dark-theme')).toBe(true);
  });

  it('starts a signed-in page\'s reads with the stored token and preloads its code and styles', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response('{}')));
    vi.stubGlobal('fetch', fetch);
    localStorage.setItem('token', 'tok-1');
    window.history.pushState({}, '', '/subscription/');
    run();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledWith('/api/v1/mobile/subscription/status', { headers: { Accept: 'application/json', Authorization: 'Bearer tok-1' } });
    const started = (globalThis as unknown as { __sbEarly: { t: string; q: Record<string, unknown> } }).__sbEarly;
    expect(started.t).toBe('tok-1');
    expect(Object.keys(started.q)).toEqual(early['/subscription'].r);
    // Each answer is kept as its status and body, read as it arrives (src/api/http.ts takes it).
    await expect(started.q['/api/v1/mobile/subscription/status']).resolves.toEqual({ s: 200, b: '{}' });
    expect([...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href'))).toEqual(['/assets/SubscriptionPage-abc.js']);
    // Preloaded, not linked: a stylesheet linked here would come before the app's own in the cascade.
    expect([...document.head.querySelectorAll('link[rel="preload"][as="style"]')].map((link) => link.getAttribute('href'))).toEqual(['/assets/subscription-abc.css']);
    expect(document.head.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(0);
    // In CORS mode, as Vite's loader links them: a preload in another mode is not reused, and the file comes twice.
    expect(document.head.querySelector('link[rel="preload"]')!.getAttribute('crossorigin')).toBe('');
  });

  it('a read the network fails leaves no unhandled rejection, and still fails for the app to ask again (issue 37)', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      localStorage.setItem('token', 'tok-1');
      window.history.pushState({}, '', '/subscription');
      run();
      // Long enough for an unhandled rejection to be reported (after the microtasks, in a later turn).
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
    const started = (globalThis as unknown as { __sbEarly: { q: Record<string, Promise<unknown>> } }).__sbEarly;
    await expect(started.q['/api/v1/mobile/subscription/status']).rejects.toThrow('Failed to fetch');
  });

  it('starts nothing without a stored session, or on another page', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    window.history.pushState({}, '', '/subscription');
    run();
    localStorage.setItem('token', 'tok-1');
    window.history.pushState({}, '', '/account');
    run();
    expect(fetch).not.toHaveBeenCalled();
    expect((globalThis as { __sbEarly?: unknown }).__sbEarly).toBeUndefined();
  });

  describe('on a prerendered page', () => {
    /** Runs the script as the page's own <script data-entry>, with frames and timers under the test's hand. */
    function runOnPage() {
      const frames: Array<() => void> = [];
      vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
      const script = document.createElement('script');
      script.setAttribute('data-entry', '/assets/index-abc.js');
      script.setAttribute('data-preload', '/assets/vendor-abc.js /assets/HomePage-abc.js');
      Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
      try {
        run();
      } finally {
        delete (document as { currentScript?: unknown }).currentScript;
      }
      return { firstFrame: () => frames.splice(0).forEach((frame) => frame()) };
    }
    const entries = () => [...document.head.querySelectorAll('script[type="module"]')].map((script) => script.getAttribute('src'));
    const preloads = () => [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((link) => link.getAttribute('href'));
    afterEach(() => {
      document.head.querySelectorAll('script[type="module"]').forEach((script) => script.remove());
      vi.useRealTimers();
    });

    it('loads the app once the first contentful paint is on screen, not before, and once', () => {
      vi.useFakeTimers();
      let observer: ((list: { getEntriesByName(name: string): unknown[] }, self: { disconnect(): void }) => void) | undefined;
      const observed: unknown[] = [];
      const disconnect = vi.fn();
      vi.stubGlobal('PerformanceObserver', class {
        static supportedEntryTypes = ['navigation', 'paint', 'resource'];
        constructor(callback: typeof observer) {
          observer = callback;
        }
        observe(options: unknown) {
          observed.push(options);
        }
      });
      const page = runOnPage();
      expect(observed).toEqual([{ type: 'paint', buffered: true }]);
      page.firstFrame();
      vi.advanceTimersByTime(50);
      observer!({ getEntriesByName: () => [] }, { disconnect }); // first-paint alone: not yet
      vi.advanceTimersByTime(10);
      expect(entries()).toEqual([]);
      observer!({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }, { disconnect });
      expect(entries()).toEqual([]);
      vi.advanceTimersByTime(0);
      expect(entries()).toEqual(['/assets/index-abc.js']);
      expect(preloads()).toEqual(['/assets/vendor-abc.js', '/assets/HomePage-abc.js']);
      expect(disconnect).toHaveBeenCalled();
      vi.advanceTimersByTime(2000); // the bound adds nothing more
      expect(entries()).toEqual(['/assets/index-abc.js']);
      expect(preloads()).toHaveLength(2);
    });

    it('waits for the paint entry up to a second after the first frame where the browser has paint timing', () => {
      vi.useFakeTimers();
      vi.stubGlobal('PerformanceObserver', class {
        static supportedEntryTypes = ['paint'];
        observe() {}
      });
      const page = runOnPage();
      page.firstFrame();
      vi.advanceTimersByTime(999);
      expect(entries()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(entries()).toEqual(['/assets/index-abc.js']);
    });

    it('loads the app 100 ms after the first frame where the browser has no paint timing', () => {
      vi.useFakeTimers();
      const observe = vi.fn();
      vi.stubGlobal('PerformanceObserver', class {
        static supportedEntryTypes = ['navigation', 'resource'];
        observe = observe;
      });
      const page = runOnPage();
      vi.advanceTimersByTime(500);
      expect(entries()).toEqual([]); // no frame yet, nothing painted
      page.firstFrame();
      vi.advanceTimersByTime(99);
      expect(entries()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(entries()).toEqual(['/assets/index-abc.js']);
      expect(observe).not.toHaveBeenCalled();
    });

    it('loads the app 100 ms after the first frame where there is no PerformanceObserver at all', () => {
      vi.useFakeTimers();
      vi.stubGlobal('PerformanceObserver', undefined);
      const page = runOnPage();
      page.firstFrame();
      vi.advanceTimersByTime(100);
      expect(entries()).toEqual(['/assets/index-abc.js']);
    });
  });
});

