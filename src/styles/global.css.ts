import { assignVars, globalStyle } from '@vanilla-extract/css';
import { darkTheme, font, lightTheme, vars } from './theme.css';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html, body', { margin: 0, padding: 0 });
// Whatever is scrolled or focused into view lands below the fixed 64 px header.
globalStyle('html', { scrollPaddingTop: 80 });
// Headings and error boxes take focus from script (route change, failed submit), not from Tab.
globalStyle('[tabindex="-1"]:focus:not(:focus-visible)', { outline: 'none' });
// ... and no ring when the app moved focus there for someone not on the keyboard (views/focusFromScript.ts).
globalStyle('[data-quiet-focus]:focus', { outline: 'none' });
globalStyle('body', {
  fontFamily: font.body,
  fontSize: font.size.md,
  lineHeight: 1.5,
  background: vars.color.background,
  color: vars.color.text,
  minHeight: '100vh',
});
globalStyle('a', { color: vars.color.accent });
// Checkboxes and radios in the theme's accent, not the browser's blue.
globalStyle('html', { accentColor: vars.color.accent });
globalStyle('a:hover', { color: vars.color.accentHover });
globalStyle(':focus-visible', { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' });
globalStyle('h1, h2, h3', { lineHeight: 1.2 });
globalStyle('.visually-hidden', {
  position: 'absolute', width: 1, height: 1, padding: 0, margin: -1, overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)', whiteSpace: 'nowrap', border: 0,
});

// The skip link (index.html) is hidden until it has focus, then shows above the header.
globalStyle('.skip-link', {
  position: 'absolute', left: 8, top: -200, zIndex: 100, padding: '8px 16px', borderRadius: 6,
  background: vars.color.accent, color: vars.color.accentText, fontWeight: 600, textDecoration: 'none',
});
globalStyle('.skip-link:focus', { top: 8 });

// On paper every page is dark ink on white, whichever theme is on screen (review finding 19: a receipt
// printed in the dark theme came out on a near-black page); muted text stays readable (#444).
globalStyle(`html.${darkTheme}, html.${lightTheme}`, {
  '@media': {
    print: {
      vars: assignVars(vars, {
        color: {
          background: '#ffffff', surface: '#ffffff', surfaceRaised: '#ffffff', text: '#000000', textMuted: '#444444',
          border: '#999999', accent: '#000000', accentText: '#ffffff', accentHover: '#000000', danger: '#8b0000',
          dangerSurface: '#ffffff', success: '#0b5a26', focus: '#000000',
        },
      }),
    },
  },
});
