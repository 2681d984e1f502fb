import { globalStyle } from '@vanilla-extract/css';
import { radius, vars } from '../styles/theme.css';

// Toasts in the brand's colours from the theme contract (so they follow dark and light), not the
// library's stock green/red/blue; text colours chosen for contrast on each.
// 'html:root' outranks the library's own ':root' defaults, which it injects later at run time.
globalStyle('html:root', {
  vars: {
    '--toastify-toast-top': '76px',
    '--toastify-color-success': vars.color.success,
    '--toastify-text-color-success': vars.color.background,
    '--toastify-color-error': vars.color.danger,
    '--toastify-text-color-error': vars.color.background,
    '--toastify-color-info': vars.color.accent,
    '--toastify-text-color-info': vars.color.accentText,
    '--toastify-color-progress-success': vars.color.background,
    '--toastify-color-progress-error': vars.color.background,
    '--toastify-color-progress-info': vars.color.accentText,
    '--toastify-toast-bd-radius': radius.md,
    '--toastify-font-family': 'inherit',
  },
});

// Toasts sit below the fixed header, so they never cover the account menu. On a phone the library
// makes them as wide as the screen: at the top they covered the page's title and first card for 4 s
// (review finding 23), so there they sit at the bottom edge instead, inset from the edges
// (product.md#toasts).
globalStyle('.Toastify__toast-container.Toastify__toast-container--top-right', {
  '@media': {
    'only screen and (max-width: 480px)': {
      top: 'auto', bottom: 'calc(8px + env(safe-area-inset-bottom, 0px))', padding: '0 8px', width: '100%',
    },
  },
});
globalStyle('.Toastify__toast-container .Toastify__toast', {
  '@media': { 'only screen and (max-width: 480px)': { borderRadius: radius.md, marginBottom: 8 } },
});
