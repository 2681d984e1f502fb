/** Theme choice (product.md#app-wide: dark by default; light, dark or system), persisted under 'theme'. */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { STORAGE_KEYS, readItem, writeItem } from '../lib/storage';
import { darkTheme, lightTheme } from '../styles/theme.css';

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export function readThemeChoice(): ThemeChoice {
  const stored = readItem(STORAGE_KEYS.theme);
  return (THEME_CHOICES as readonly string[]).includes(stored ?? '') ? (stored as ThemeChoice) : 'dark';
}

const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  const media = window.matchMedia?.('(prefers-color-scheme: light)');
  media?.addEventListener?.('change', listener);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener?.('change', listener);
  };
}

function prefersLight(): boolean {
  return window.matchMedia?.('(prefers-color-scheme: light)').matches ?? false;
}

export function resolveThemeClass(choice: ThemeChoice): string {
  const light = choice === 'light' || (choice === 'system' && prefersLight());
  return light ? lightTheme : darkTheme;
}

/** Applies the chosen theme class to <html> and returns the choice with its setter. */
export function useTheme() {
  const choice = useSyncExternalStore(subscribe, readThemeChoice, () => 'dark' as ThemeChoice);
  const light = useSyncExternalStore(subscribe, prefersLight, () => false);
  useEffect(() => {
    const root = document.documentElement;
    root.classList.remove(darkTheme, lightTheme);
    root.classList.add(resolveThemeClass(choice));
    root.style.colorScheme = choice === 'light' || (choice === 'system' && light) ? 'light' : 'dark';
  }, [choice, light]);
  const setChoice = useCallback((next: ThemeChoice) => {
    writeItem(STORAGE_KEYS.theme, next);
    listeners.forEach((listener) => listener());
  }, []);
  return { choice, setChoice };
}
