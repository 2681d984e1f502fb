/** The subscription home and the voucher page: cards, history tabs, payments list, the dialog. */
import { globalStyle, keyframes, style, styleVariants } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

export const layout = style({
  // minmax(0, 1fr) even on a phone: a wide payments table scrolls inside its card instead of widening the page.
  display: 'grid', gap: space.lg, gridTemplateColumns: 'minmax(0, 1fr)',
  // Two columns from 1024 px: at 768 they were too narrow for dates, masked numbers and references.
  '@media': { [breakpoint.large]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', alignItems: 'start' } },
});
export const wide = style({ '@media': { [breakpoint.large]: { gridColumn: '1 / -1' } } });
export const cardTitle = style({ margin: `0 0 ${space.md}`, fontSize: font.size.lg });
export const planHeader = style({ display: 'flex', alignItems: 'center', gap: space.sm, flexWrap: 'wrap', marginBottom: space.md });
export const planName = style({ fontSize: font.size.xl, fontWeight: 700, margin: 0 });

// Label beside value, the labels' column at most 40% (a long label wraps rather than squeeze the values);
// on a phone the value under its label (as a payment's details read), so Bisaya's 'Sunod nga Petsa sa
// Bayad' never squeezes a date or a card number into pieces.
export const facts = style({
  display: 'grid', gridTemplateColumns: 'fit-content(40%) minmax(0, 1fr)', gap: `${space.sm} ${space.md}`, margin: `0 0 ${space.lg}`,
  '@media': { 'screen and (max-width: 479px)': { gridTemplateColumns: 'minmax(0, 1fr)', rowGap: 0 } },
});
export const factLabel = style({
  color: vars.color.textMuted, fontSize: font.size.sm, alignSelf: 'center',
  '@media': { 'screen and (max-width: 479px)': { marginTop: space.sm } },
});
export const factValue = style({ margin: 0, overflowWrap: 'anywhere' });
// A masked number or a reference does not break inside itself where there is room (a phone may need to).
export const mono = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', letterSpacing: '0.04em',
  '@media': { [breakpoint.medium]: { whiteSpace: 'nowrap' } },
});

export const actions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap' });
/** The card's one-line state ('Premium · renews … for ₱99 on Visa •••• 1381'), above the facts. */
export const summary = style({ margin: `0 0 ${space.md}`, fontWeight: 600 });
/** The free card's short word on Premium (price and what it gives). */
export const pitch = style({ margin: `0 0 ${space.lg}`, color: vars.color.textMuted });
/** The destructive action sits apart at the end of the row (on its own line's end when it wraps). */
export const last = style({ marginInlineStart: 'auto' });
/** A quiet link under the actions (Redeem Voucher on a Premium card). */
export const aside = style({ margin: `${space.md} 0 0`, fontSize: font.size.sm });

const badgeBase = style({
  display: 'inline-block', padding: `2px ${space.sm}`, borderRadius: radius.pill, fontSize: font.size.sm, fontWeight: 600,
  border: '1px solid currentColor', whiteSpace: 'nowrap',
});
export const badge = styleVariants({
  good: [badgeBase, { color: vars.color.success }],
  warning: [badgeBase, { color: vars.color.danger }],
  neutral: [badgeBase, { color: vars.color.textMuted }],
  type: [badgeBase, { color: vars.color.accent }],
});

const shimmer = keyframes({ '0%': { opacity: 0.45 }, '50%': { opacity: 0.9 }, '100%': { opacity: 0.45 } });
export const skeleton = style({
  display: 'block', height: '1.1em', borderRadius: radius.sm, background: vars.color.surfaceRaised, margin: `${space.sm} 0`,
  animation: `${shimmer} 1.4s ease-in-out infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
});
export const skeletonWidth = styleVariants({ short: { width: '40%' }, medium: { width: '65%' }, long: { width: '90%' } });

export const errorArea = style({ display: 'grid', gap: space.md, justifyItems: 'start' });

/* History tabs (views/parts/Tabs.tsx) */
export const tabList = style({
  display: 'flex', gap: space.xs, borderBottom: `1px solid ${vars.color.border}`, marginBottom: space.md, position: 'relative',
});
export const tab = style({
  font: 'inherit', fontWeight: 600, background: 'transparent', color: vars.color.textMuted, border: 0, cursor: 'pointer',
  padding: `${space.sm} ${space.md}`, minHeight: 44, borderBottom: '3px solid transparent', marginBottom: -1,
  selectors: { '&[data-selected]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});
/** product.md#subscription and product.md#layout-sizes: the history list is at most 400px tall and scrolls. */
export const scrollList = style({
  maxHeight: 400, overflowY: 'auto', listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: space.sm,
});
export const listItem = style({
  border: `1px solid ${vars.color.border}`, borderRadius: radius.md, padding: space.md, display: 'grid', gap: space.xs,
  background: vars.color.surfaceRaised,
});
export const itemHeader = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: space.sm, flexWrap: 'wrap' });
export const itemMeta = style({ color: vars.color.textMuted, fontSize: font.size.sm, margin: 0, overflowWrap: 'anywhere' });
export const empty = style({ color: vars.color.textMuted, margin: `${space.md} 0` });

/*
 * Payments (review finding 18): a table from 1024 px up; below, each payment is a small card of
 * label/value lines (the label comes from the cell's data-label), one column on a phone and two at 768,
 * so amount, status and the whole reference show without sideways scroll. Never a box of fixed height:
 * the payments grow with the page (the 400 px limit is the history list's, product.md#layout-sizes), so
 * no row is cut through.
 */
const narrow = 'screen and (max-width: 1023px)';
// A cue where the table is wider than its card (a long Bisaya label, a large text size): a shadow at the
// side that hides more columns. The covers scroll with the content ('local') and hide the shadows at the
// ends; the shadows stay with the box ('scroll').
const edgeShadow = `color-mix(in srgb, ${vars.color.text} 28%, transparent)`;
export const tableScroll = style({
  overflowX: 'auto',
  '@media': {
    [breakpoint.large]: {
      background: [
        `linear-gradient(to right, ${vars.color.surface} 40%, transparent) left / 32px 100% no-repeat local`,
        `linear-gradient(to left, ${vars.color.surface} 40%, transparent) right / 32px 100% no-repeat local`,
        `radial-gradient(farthest-side at 0 50%, ${edgeShadow}, transparent) left / 14px 100% no-repeat scroll`,
        `radial-gradient(farthest-side at 100% 50%, ${edgeShadow}, transparent) right / 14px 100% no-repeat scroll`,
      ].join(', '),
    },
  },
});
export const table = style({
  width: '100%', borderCollapse: 'collapse', fontSize: font.size.sm,
  '@media': { [narrow]: { display: 'block' } },
});
export const thead = style({
  '@media': { [narrow]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } },
});
export const tbody = style({
  '@media': { [narrow]: { display: 'grid', gap: space.sm, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 18rem), 1fr))', alignItems: 'start' } },
});
export const row = style({
  '@media': {
    [narrow]: {
      display: 'grid', gap: space.xs, padding: space.sm, border: `1px solid ${vars.color.border}`, borderRadius: radius.md,
      background: vars.color.surfaceRaised,
    },
  },
});
export const th = style({
  textAlign: 'left', color: vars.color.textMuted, fontWeight: 600, padding: `${space.sm} ${space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const td = style({
  padding: `${space.sm} ${space.sm}`, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top',
  '@media': {
    [narrow]: {
      display: 'grid', gridTemplateColumns: '6.5rem minmax(0, 1fr)', gap: space.sm, padding: 0, border: 0, overflowWrap: 'anywhere',
      justifyItems: 'start',
      selectors: { '&::before': { content: 'attr(data-label)', color: vars.color.textMuted } },
    },
  },
});
// On a card the reference has a line of its own under its label (a renewal's 'SB-RN-' and 20 characters
// need more than the value column), so it breaks nowhere on a phone; in the table it keeps to one line.
export const referenceCell = style({
  '@media': { [narrow]: { gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 } },
});
export const reference = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflowWrap: 'anywhere',
  '@media': { [breakpoint.large]: { whiteSpace: 'nowrap', letterSpacing: '0.02em' } },
});

/* Dialog (Ark UI) */
export const backdrop = style({ position: 'fixed', inset: 0, background: 'rgba(0,0,0,0.6)', zIndex: 40 });
export const positioner = style({
  position: 'fixed', inset: 0, display: 'grid', placeItems: 'center', padding: space.md, zIndex: 41,
});
export const dialog = style({
  background: vars.color.surface, color: vars.color.text, border: `1px solid ${vars.color.border}`, borderRadius: radius.lg,
  padding: space.lg, width: 'min(100%, 560px)', maxHeight: 'calc(100dvh - 32px)', overflowY: 'auto', position: 'relative',
  boxShadow: '0 24px 64px rgba(0,0,0,0.45)', display: 'grid', gap: space.md,
  '@media': { 'screen and (max-width: 479px)': { padding: space.md } },
});
export const dialogTitle = style({ margin: 0, fontSize: font.size.lg, paddingRight: space.xl });
export const dialogText = style({ margin: 0 });
export const dialogBody = style({ display: 'grid', gap: space.sm });
export const closeButton = style({
  position: 'absolute', top: space.sm, right: space.sm, width: 44, height: 44, borderRadius: radius.pill, border: 0,
  background: 'transparent', color: vars.color.text, fontSize: font.size.lg, cursor: 'pointer',
  selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceRaised }, '&:disabled': { opacity: 0.5, cursor: 'not-allowed' } },
});
export const dialogActions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap', justifyContent: 'flex-end' });

// On a phone a button's side padding is smaller, so Bisaya's longer labels ('Kanselahon ang Subscription') keep to one line.
globalStyle(`${actions} > :is(a, button), ${dialogActions} > button`, {
  '@media': { 'screen and (max-width: 479px)': { paddingInline: space.md } },
});

export const backLink = style({ display: 'inline-block', marginBottom: space.md });

/* The renewal notice (product.md#dunning, product.md#checkout-renewal): a framed box above the facts. */
const noticeBase = style({
  display: 'grid', gap: space.sm, justifyItems: 'start', padding: space.md, marginBottom: space.lg,
  borderRadius: radius.md, border: '1px solid', borderLeftWidth: 4, background: vars.color.surfaceRaised,
});
export const notice = styleVariants({
  pastDue: [noticeBase, { borderColor: vars.color.danger }],
  due: [noticeBase, { borderColor: vars.color.accent }],
});
export const noticeTitle = style({ margin: 0, fontSize: font.size.md, fontWeight: 700 });
export const noticeText = style({ margin: 0 });
// On a phone the cell is a label/value grid: the retries stay in the value column, under the status (not under the label).
export const retries = style({
  display: 'block', marginTop: space.xs, color: vars.color.textMuted, fontSize: font.size.sm,
  '@media': { [narrow]: { gridColumn: 2, marginTop: 0 } },
});
/** A successful payment's receipt, under its reference. */
export const receiptLink = style({ display: 'block', marginTop: space.xs, fontSize: font.size.sm, '@media': { print: { display: 'none' } } });


/** Invoices and credit memos (issue 34): one line each, number first; on a phone the details wrap under it. */
export const invoiceList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid' });
export const invoiceItem = style({
  display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', columnGap: space.md, rowGap: 2, alignItems: 'baseline',
  padding: `${space.sm} 0`, borderBottom: `1px solid ${vars.color.border}`,
  selectors: { '&:last-child': { borderBottom: 'none' } },
});
export const invoiceLink = style({ fontWeight: 600, overflowWrap: 'anywhere' });
export const invoiceMeta = style({ gridColumn: '1', color: vars.color.textMuted, fontSize: font.size.sm, overflowWrap: 'anywhere' });
export const invoiceTotal = style({ gridColumn: '2', gridRow: '1', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' });
