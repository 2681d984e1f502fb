/** The receipt page: the total set apart; on paper the receipt alone, in black on white. */
import { globalStyle, style } from '@vanilla-extract/css';
import { font, radius, space, vars } from '../../styles/theme.css';

export const receipt = style({
  display: 'grid', gap: space.md,
  '@media': { print: { border: 'none', boxShadow: 'none', background: 'white', color: 'black', padding: 0 } },
});
export const merchant = style({ margin: 0, display: 'grid', gap: 2 });
export const totalRow = style({ borderTop: `1px solid ${vars.color.border}`, paddingTop: space.sm, marginTop: space.xs });
export const total = style({ fontWeight: 700, fontSize: font.size.lg });
/** The sample seller of the embedded default, said plainly (issue 34). */
export const sample = style({
  margin: 0, padding: `${space.xs} ${space.sm}`, border: `1px dashed ${vars.color.border}`, borderRadius: radius.sm, fontWeight: 600,
});
/** 'SALES INVOICE · SB-INV-00000001' under the heading: the legal label and the number, which may wrap anywhere on a phone. */
export const documentNumber = style({ margin: 0, letterSpacing: '0.02em', overflowWrap: 'anywhere' });
/** Download PDF, its status and Print, wrapping on a phone. */
export const actions = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: space.sm });
/** Links and buttons that make no sense on paper. */
export const screenOnly = style({ '@media': { print: { display: 'none' } } });
// On paper (as wide as a tablet's screen) each label and its value share a line, as from medium width on screen.
globalStyle(`${receipt} dl > div`, {
  '@media': { print: { display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', columnGap: space.md } },
});
globalStyle(`${receipt} dd`, { '@media': { print: { textAlign: 'end', marginInlineStart: 'auto' } } });
