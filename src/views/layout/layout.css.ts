import { globalStyle, style } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

export const shell = style({ minHeight: '100vh', display: 'flex', flexDirection: 'column' });
// Printed (a receipt), a page is its content alone: no header, footer or their room.
export const main = style({ flex: 1, paddingTop: 72, '@media': { print: { paddingTop: 0 } } });

export const header = style({
  position: 'fixed', top: 0, left: 0, right: 0, zIndex: 10, height: 64,
  display: 'flex', alignItems: 'center', justifyContent: 'space-between',
  padding: `0 ${space.md}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  '@media': { [breakpoint.medium]: { padding: `0 ${space.xl}` }, print: { display: 'none' } },
});
export const logo = style({
  fontWeight: 800, fontSize: font.size.lg, letterSpacing: '0.02em', textDecoration: 'none',
  color: vars.color.text, selectors: { '&:hover': { color: vars.color.accent } },
});
export const logoAccent = style({ color: vars.color.accent });

export const menuContent = style({
  background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: radius.md,
  padding: space.xs, minWidth: 200, boxShadow: '0 12px 32px rgba(0,0,0,0.35)', outline: 'none', zIndex: 20,
});
export const menuTitle = style({ padding: `${space.sm} ${space.md}`, fontSize: font.size.sm, color: vars.color.textMuted, margin: 0 });
export const menuItem = style({
  padding: `${space.sm} ${space.md}`, borderRadius: radius.sm, cursor: 'pointer', color: vars.color.text,
  // The highlighted item (pointer or arrow keys) in the accent colour: clear in both themes.
  selectors: { '&[data-highlighted]': { background: vars.color.accent, color: vars.color.accentText } },
});

export const footer = style({
  borderTop: `1px solid ${vars.color.border}`, background: vars.color.surface,
  padding: `${space.xl} ${space.md}`, marginTop: space.xxl,
  '@media': { [breakpoint.medium]: { paddingLeft: space.xl, paddingRight: space.xl }, print: { display: 'none' } },
});
export const footerGrid = style({
  maxWidth: 1040, margin: '0 auto', display: 'grid', gap: space.lg,
  // Six groups (with Theme and Language) in one row on a wide screen, Bisaya's longer words included.
  gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
});
export const footerHeading = style({ fontSize: font.size.sm, textTransform: 'uppercase', letterSpacing: '0.08em', color: vars.color.textMuted, margin: `0 0 ${space.sm}` });
export const footerList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: space.xs });
export const themeGroup = style({ border: 0, margin: 0, padding: 0, display: 'grid', gap: space.xs, alignContent: 'start' });
// A legend's own padding and weight would set the group's heading off the sections' (h2) headings.
globalStyle(`${themeGroup} > legend`, { padding: 0, fontWeight: 'bold' });
export const copyright = style({ maxWidth: 1040, margin: `${space.lg} auto 0`, color: vars.color.textMuted, fontSize: font.size.sm });
export const menuAvatar = style({ width: 24, height: 24, borderRadius: radius.pill, objectFit: 'cover' });
