/** Shared building blocks: page container, cards, form controls, buttons, message boxes. */
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from './theme.css';

/** The content's edge is the header's (layout.css.ts): 16 px on a phone, 40 px from medium width. */
const pageEdge = { '@media': { [breakpoint.medium]: { paddingLeft: space.xl, paddingRight: space.xl } } } as const;
export const page = style({ maxWidth: 1040, margin: '0 auto', padding: `${space.xl} ${space.md}`, ...pageEdge });
export const narrowPage = style({ maxWidth: 460, margin: '0 auto', padding: `${space.xl} ${space.md}` });
/** A page of a few stacked sections (change payment method): its title on one line and room for the forms from medium width. */
export const mediumPage = style({ maxWidth: 720, margin: '0 auto', padding: `${space.xl} ${space.md}`, ...pageEdge });

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: radius.lg,
  padding: space.lg,
  '@media': { [breakpoint.medium]: { padding: space.xl } },
});

export const heading = style({ fontSize: font.size.xl, margin: `0 0 ${space.md}` });
export const muted = style({ color: vars.color.textMuted });

export const form = style({ display: 'grid', gap: space.md });
export const fieldset = style({ border: 0, padding: 0, margin: 0, display: 'grid', gap: space.md, minWidth: 0 });
export const field = style({ display: 'grid', gap: space.xs, minWidth: 0 });
export const label = style({ fontWeight: 600, fontSize: font.size.sm });
export const input = style({
  font: 'inherit',
  // An input's intrinsic width (size=20, a date picker's) must never push it past its card.
  width: '100%',
  minWidth: 0,
  padding: `${space.sm} ${space.md}`,
  minHeight: 44,
  borderRadius: radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    '&:disabled': { opacity: 0.7 },
  },
});
export const fieldError = style({ color: vars.color.danger, fontSize: font.size.sm, margin: 0 });

const buttonBase = style({
  font: 'inherit',
  fontWeight: 600,
  minHeight: 44,
  padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.pill,
  border: '1px solid transparent',
  cursor: 'pointer',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: space.sm,
  textDecoration: 'none',
  selectors: { '&:disabled': { opacity: 0.6, cursor: 'not-allowed' } },
});
export const button = styleVariants({
  primary: [buttonBase, {
    background: vars.color.accent, color: vars.color.accentText,
    selectors: { '&:hover:not(:disabled)': { background: vars.color.accentHover, color: vars.color.accentText } },
  }],
  secondary: [buttonBase, {
    background: 'transparent', color: vars.color.text, borderColor: vars.color.border,
    selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceRaised, color: vars.color.text } },
  }],
  /** An action that ends something (canceling a subscription): outlined in the danger colour, never the filled way forward. */
  danger: [buttonBase, {
    background: 'transparent', color: vars.color.danger, borderColor: vars.color.danger,
    selectors: { '&:hover:not(:disabled)': { background: vars.color.dangerSurface, color: vars.color.danger } },
  }],
});

export const errorBox = style({
  background: vars.color.dangerSurface,
  color: vars.color.danger,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: radius.sm,
  padding: `${space.sm} ${space.md}`,
  margin: 0,
});

export const linkRow = style({ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: space.sm, fontSize: font.size.sm });
// Small links in a row are still 24 px tall targets (WCAG 2.2, 2.5.8 target size).
globalStyle(`${linkRow} a`, { display: 'inline-block', minHeight: 24, paddingBlock: 2 });
export const centered = style({ textAlign: 'center' });

/**
 * Label/value lines of a payment (result page, receipt): on a phone the value under its label, from
 * medium width side by side on one baseline (a long value beside a short label made ragged blocks).
 */
export const details = style({
  margin: 0, padding: space.md, borderRadius: radius.md, border: `1px solid ${vars.color.border}`, display: 'grid', gap: space.sm,
});
export const detailRow = style({
  display: 'grid', gap: 2,
  '@media': { [breakpoint.medium]: { display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', columnGap: space.md } },
});
export const detailLabel = style({ color: vars.color.textMuted, fontSize: font.size.sm, '@media': { print: { color: '#444' } } });
export const detailValue = style({
  margin: 0, fontWeight: 600, overflowWrap: 'anywhere',
  '@media': { [breakpoint.medium]: { textAlign: 'end', marginInlineStart: 'auto' } },
});
