/** The subscribe wizard: steps, plan cards, method choice, card form, wallet panel, summary. */
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

// The content's edge is the header's from medium width (40 px); the wizard itself stays 760 px wide at most.
// On a phone the wizard starts higher and its step sits closer to the step list, so Confirm's Back and Pay
// are not on the screen's bottom edge at 390 × 844 (they were, 6 px above it).
export const wizard = style({
  maxWidth: 840, margin: '0 auto', padding: `${space.md} ${space.md} ${space.xl}`, display: 'grid', gap: space.md,
  '@media': { [breakpoint.medium]: { padding: space.xl, gap: space.lg } },
});
export const stepBody = style({
  display: 'grid', gap: space.md, marginTop: space.md,
  '@media': { [breakpoint.medium]: { marginTop: space.lg } },
});
globalStyle(`${stepBody} h2`, { margin: 0, fontSize: font.size.lg });
export const topRow = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: space.sm });
globalStyle(`${topRow} a`, { display: 'inline-block', minHeight: 24, paddingBlock: 2 });

// On a phone the steps sit closer and their titles are a little smaller, so Bisaya's longest word
// ('Kumpirmaha') fits its step from 360 px (at 390 px it broke as 'Kumpirmah|a').
export const steps = style({
  listStyle: 'none', margin: 0, padding: 0, display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: space.xs,
  counterReset: 'step',
  '@media': { [breakpoint.medium]: { gap: space.sm } },
});
// On a phone the number sits above its title, so 'Payment Method' has the step's whole width (beside
// the number, 'Payment' ran into the next step's circle at 390 px).
const stepBase = style({
  display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: space.xs, fontSize: 'clamp(0.75rem, 3.4vw, 0.875rem)', fontWeight: 600, minWidth: 0,
  paddingBottom: space.sm, borderBottom: `3px solid ${vars.color.border}`, color: vars.color.textMuted, overflowWrap: 'anywhere',
  '@media': { [breakpoint.medium]: { flexDirection: 'row', alignItems: 'center', gap: space.sm, fontSize: font.size.sm } },
});
export const step = styleVariants({
  done: [stepBase, { borderBottomColor: vars.color.accent, color: vars.color.text }],
  current: [stepBase, { borderBottomColor: vars.color.accent, color: vars.color.text }],
  todo: [stepBase],
});
export const stepNumber = style({
  flex: 'none', display: 'inline-grid', placeItems: 'center', width: 28, height: 28, borderRadius: radius.pill,
  border: `2px solid currentColor`,
});

export const planGrid = style({
  display: 'grid', gap: space.md, gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [breakpoint.medium]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
// A column whose feature list takes the spare height: the two plans' buttons line up.
export const planCard = style({
  border: `1px solid ${vars.color.border}`, borderRadius: radius.md, padding: space.lg, background: vars.color.surfaceRaised,
  display: 'flex', flexDirection: 'column', gap: space.sm, containerType: 'inline-size',
});
// A plan card inside the wizard's card leaves a phone little width: 'Pilia ang Monthly' keeps one line from 320 px.
globalStyle(`${planCard} button`, { '@media': { 'screen and (max-width: 479px)': { paddingInline: space.md } } });
export const planTitle = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: space.sm, margin: 0, fontSize: font.size.lg });
// The price and its period on one line in its plan card ('₱99 kada bulan', '₱990 kada tuig': 14 characters
// of about 0.62em) at 320, 390 and 768 px, where the card is narrow (review finding 27): the size follows
// the card's width (10.5% of it), at most 2rem.
export const price = style({ fontSize: 'clamp(1.25rem, 10.5cqi, 2rem)', lineHeight: 1.2, fontWeight: 700, margin: 0 });
/** 'VAT included' under the price (issue 34: prices are VAT-inclusive and say so). */
export const vat = style({ margin: 0, color: vars.color.textMuted, fontSize: font.size.sm });
export const features = style({ margin: 0, paddingLeft: space.lg, display: 'grid', gap: space.xs, alignContent: 'start', flexGrow: 1 });
export const popular = style({
  fontSize: font.size.sm, fontWeight: 600, color: vars.color.accent, border: '1px solid currentColor', borderRadius: radius.pill,
  padding: `2px ${space.sm}`,
});

export const methods = style({ border: 0, padding: 0, margin: 0, display: 'grid', gap: space.sm, minWidth: 0 });
export const legend = style({ fontWeight: 600, marginBottom: space.sm, padding: 0 });
export const methodOption = style({
  display: 'flex', alignItems: 'center', gap: space.sm, minHeight: 44, padding: `${space.sm} ${space.md}`, cursor: 'pointer',
  border: `1px solid ${vars.color.border}`, borderRadius: radius.md, background: vars.color.surfaceRaised,
  selectors: { '&:has(input:checked)': { borderColor: vars.color.accent } },
});
export const panel = style({ display: 'grid', gap: space.md, padding: space.md, border: `1px dashed ${vars.color.border}`, borderRadius: radius.md });

// Fields keep their own height: an error under Expiry no longer pushes the CVC box down. Each field's label,
// box and error share the row's three tracks (subgrid), so a label on two lines (Bisaya's 'Pag-expire (MM/YY)'
// on a phone) keeps both boxes on one line.
export const cardRow = style({
  display: 'grid', gap: `${space.xs} ${space.md}`, gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gridTemplateRows: 'auto auto auto', alignItems: 'start',
});
globalStyle(`${cardRow} > *`, { gridRow: 'span 3', gridTemplateRows: 'subgrid', rowGap: space.xs });
globalStyle(`${cardRow} > * > label`, { alignSelf: 'end' });
export const numberWrap = style({ display: 'grid', gap: space.xs });
export const brandMark = style({
  justifySelf: 'start', fontSize: font.size.sm, fontWeight: 700, letterSpacing: '0.04em', padding: `2px ${space.sm}`,
  borderRadius: radius.sm, border: `1px solid ${vars.color.border}`, color: vars.color.text,
});
export const checkRow = style({ display: 'flex', alignItems: 'center', gap: space.sm, minHeight: 44 });
export const savedCard = style({
  display: 'grid', gap: space.xs, padding: space.md, borderRadius: radius.md, border: `1px solid ${vars.color.border}`,
});
export const savedNumber = style({ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', letterSpacing: '0.04em', overflowWrap: 'anywhere' });
/**
 * 'Use this card' is a switch (product.md#card-option): a checkbox with role="switch", drawn as a track and thumb. The
 * off track uses the muted text colour so the control keeps 3:1 against the card in both themes.
 */
export const switchInput = style({
  appearance: 'none', position: 'relative', flexShrink: 0, width: 40, height: 24, margin: 0, cursor: 'pointer',
  borderRadius: radius.pill, background: vars.color.textMuted, transition: 'background-color 120ms',
  selectors: {
    '&::after': {
      content: '""', position: 'absolute', top: 3, left: 3, width: 18, height: 18, borderRadius: '50%',
      background: vars.color.surface, transition: 'transform 120ms',
    },
    '&:checked': { background: vars.color.accent },
    '&:checked::after': { transform: 'translateX(16px)' },
    '&:focus-visible': { outline: `2px solid ${vars.color.accent}`, outlineOffset: 2 },
    '&:disabled': { opacity: 0.6, cursor: 'not-allowed' },
  },
  '@media': { '(prefers-reduced-motion: reduce)': { transition: 'none', selectors: { '&::after': { transition: 'none' } } } },
});

const bannerBase = style({ margin: 0, padding: `${space.sm} ${space.md}`, borderRadius: radius.sm, border: '1px solid currentColor' });
export const banner = styleVariants({
  good: [bannerBase, { color: vars.color.success }],
  bad: [bannerBase, { color: vars.color.danger, background: vars.color.dangerSurface }],
});

// On a phone each label sits above its value (a masked card number wrapped in a third of the width);
// from medium width, label, value and Edit share a row.
export const summary = style({
  display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: `${space.xs} ${space.md}`,
  alignItems: 'center', margin: 0,
  '@media': { [breakpoint.medium]: { gridTemplateColumns: 'minmax(0, max-content) minmax(0, 1fr) auto', gap: `${space.sm} ${space.md}` } },
});
export const summaryLabel = style({
  color: vars.color.textMuted, fontSize: font.size.sm, gridColumn: '1 / -1', marginTop: space.sm,
  '@media': { [breakpoint.medium]: { gridColumn: 'auto', marginTop: 0 } },
});
export const summaryValue = style({ margin: 0, overflowWrap: 'anywhere' });
export const linkButton = style({
  font: 'inherit', fontSize: font.size.sm, background: 'none', border: 0, color: vars.color.accent, cursor: 'pointer',
  textDecoration: 'underline', minHeight: 24, padding: `2px ${space.xs}`,
});
export const actions = style({ display: 'flex', justifyContent: 'space-between', gap: space.sm, flexWrap: 'wrap' });
// Back and the way forward share a row on a phone ('Balik' and 'Magbayad og ₱99' wrapped at 390 px); if they
// still wrap, the way forward stays on the right.
globalStyle(`${actions} > button`, { '@media': { 'screen and (max-width: 479px)': { paddingInline: space.md } } });
globalStyle(`${actions} > :last-child`, { marginLeft: 'auto' });

/** A payment option's name with its hint under it (product.md#method-names), in the wizard and on change payment method. */
export const optionText = style({ display: 'grid', gap: 2 });
export const optionHint = style({ color: vars.color.textMuted, fontSize: '0.875rem' });

/** The question asked when checkout is picked (parts/CheckoutConfirm.tsx): in the flow of the page, marked out from it. */
export const question = style({
  display: 'grid', gap: space.sm, padding: space.md, borderRadius: radius.md,
  border: `1px solid ${vars.color.accent}`, background: vars.color.surfaceRaised,
});
globalStyle(`${question} p`, { margin: 0 });
