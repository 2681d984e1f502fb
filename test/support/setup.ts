import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// jsdom lacks these browser APIs that Ark UI and the theme hook use.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false, media: query, onchange: null,
      addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// Lazy chunks load slower when both cores are busy; waits are bounds, not timings under test.
configure({ asyncUtilTimeout: 5000 });

if (!URL.createObjectURL) {
  let next = 0;
  URL.createObjectURL = () => `blob:test/${++next}`;
  URL.revokeObjectURL = () => {};
}

// XState warns when an event reaches an actor that has stopped: a view still talking to a flow
// that ended (issue 6, item 11). Such a warning fails the test that caused it.
const actorWarnings: string[] = [];
beforeEach(() => {
  actorWarnings.length = 0;
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (text.includes('was sent to stopped actor')) actorWarnings.push(text);
    warn(...args);
  });
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.mocked(console.warn).mockRestore();
  if (actorWarnings.length) throw new Error(`XState warned during this test:\n${actorWarnings.join('\n')}`);
});
