/** The change-plan page: the plan grid (two columns from medium width, product.md#layout-sizes) and its cards. */
import { globalStyle, style } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

export const intro = style({ display: 'grid', gap: space.sm, marginBottom: space.lg });
/** The change-payment-method page's two cards, apart like the cards of the subscription page. */
export const sections = style({ display: 'grid', gap: space.lg });
// On a phone a long label (Bisaya's 'I-save ang Paagi sa Pagbayad') gets the button's width (narrower sides);
// when it still wraps, its lines are balanced.
globalStyle(`${sections} button`, {
  textWrap: 'balance',
  '@media': { 'screen and (max-width: 479px)': { paddingInline: space.md } },
});
export const note = style({ margin: 0, color: vars.color.textMuted });
export const grid = style({
  display: 'grid', gap: space.lg, gridTemplateColumns: 'minmax(0, 1fr)', margin: `${space.lg} 0`, padding: 0, listStyle: 'none',
  '@media': { [breakpoint.medium]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' } },
});
// A column whose feature list takes the spare height: the buttons of cards side by side line up.
export const planCard = style({
  display: 'flex', flexDirection: 'column', gap: space.sm, padding: space.lg, borderRadius: radius.lg,
  background: vars.color.surface, border: `2px solid ${vars.color.border}`, minWidth: 0,
});
export const selected = style({ borderColor: vars.color.accent });
export const planTop = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: space.sm, flexWrap: 'wrap' });
export const planTitle = style({ margin: 0, fontSize: font.size.lg });
export const price = style({ margin: 0, fontSize: font.size.xl, fontWeight: 700 });
/** 'VAT included' under the price (issue 34). */
export const vat = style({ margin: 0, color: vars.color.textMuted, fontSize: font.size.sm });
export const period = style({ fontSize: font.size.md, fontWeight: 400, color: vars.color.textMuted });
export const features = style({ margin: 0, paddingLeft: space.lg, display: 'grid', gap: space.xs, alignContent: 'start', flexGrow: 1 });
/** The chosen plan says so in words, not only by its border's colour. */
export const chosen = style({
  padding: `2px ${space.sm}`, borderRadius: radius.pill, border: `1px solid ${vars.color.accent}`, color: vars.color.text, fontSize: font.size.sm, fontWeight: 600,
});
export const footer = style({ display: 'flex', justifyContent: 'flex-end', gap: space.sm, flexWrap: 'wrap' });
// A value (an amount, a date) keeps its width; a long label wraps instead (a move down's label in Bisaya, at 390).
export const dialogFacts = style({
  display: 'grid', gridTemplateColumns: 'minmax(0, max-content) minmax(max-content, 1fr)', gap: `${space.xs} ${space.md}`, margin: 0,
});
export const factRow = style({ display: 'contents' });
/* The payment method options (change payment method) */
/* The payment method options (change payment method): tiles, one per row (the page's column is narrow at every width) */
export const options = style({
  border: 0, padding: 0, margin: `0 0 ${space.md}`, minWidth: 0, display: 'grid', gap: space.sm, gridTemplateColumns: 'minmax(0, 1fr)',
});
export const option = style({
  display: 'flex', alignItems: 'center', gap: space.sm, minHeight: 44, padding: `${space.sm} ${space.md}`, cursor: 'pointer',
  border: `1px solid ${vars.color.border}`, borderRadius: radius.md, background: vars.color.surfaceRaised,
  selectors: { '&:has(input:checked)': { borderColor: vars.color.accent } },
});
