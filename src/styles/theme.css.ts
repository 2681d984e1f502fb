/** The theme contract and its two themes; 'system' picks one from the viewer's preference. */
import { createTheme, createThemeContract } from '@vanilla-extract/css';

export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    surfaceRaised: null,
    text: null,
    textMuted: null,
    border: null,
    accent: null,
    accentText: null,
    accentHover: null,
    danger: null,
    dangerSurface: null,
    success: null,
    focus: null,
  },
});

export const space = { xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '40px', xxl: '64px' } as const;
export const radius = { sm: '6px', md: '10px', lg: '16px', pill: '999px' } as const;
export const font = {
  body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  size: { sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '2rem', hero: 'clamp(2.25rem, 6vw, 3.75rem)' },
} as const;
export const breakpoint = { medium: 'screen and (min-width: 768px)', large: 'screen and (min-width: 1024px)' } as const;

export const darkTheme = createTheme(vars, {
  color: {
    background: '#0f0d0b',
    surface: '#1a1714',
    surfaceRaised: '#25211c',
    text: '#f6f1ea',
    textMuted: '#b9afa3',
    border: '#3a332b',
    accent: '#f0a93b',
    accentText: '#1b1204',
    accentHover: '#f6bf66',
    danger: '#ff8a80',
    dangerSurface: '#3b1714',
    success: '#7fd69a',
    focus: '#ffd58a',
  },
});

export const lightTheme = createTheme(vars, {
  color: {
    background: '#fbf8f3',
    surface: '#ffffff',
    surfaceRaised: '#f3ede4',
    text: '#1d1812',
    textMuted: '#5d5449',
    border: '#ddd3c5',
    accent: '#9a5a00',
    accentText: '#ffffff',
    accentHover: '#7d4900',
    danger: '#b3261e',
    dangerSurface: '#fdecea',
    success: '#1e7a3c',
    focus: '#9a5a00',
  },
});
