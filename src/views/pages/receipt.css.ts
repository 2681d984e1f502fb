/** The receipt page: label/value rows, the total set apart; on paper the receipt alone, in black on white. */
import { style } from '@vanilla-extract/css';
import { font, radius, space, vars } from '../../styles/theme.css';

export const receipt = style({
  display: 'grid', gap: space.md,
  '@media': { print: { border: 'none', boxShadow: 'none', background: 'white', color: 'black', padding: 0 } },
});
export const merchant = style({ margin: 0, display: 'grid', gap: 2 });
export const list = style({ margin: 0, padding: space.md, borderRadius: radius.md, border: `1px solid ${vars.color.border}`, display: 'grid', gap: space.sm });
// Label and value on one line while they fit, the value under its label when not (390 px).
export const row = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: space.md, rowGap: 2 });
export const label = style({ color: vars.color.textMuted, fontSize: font.size.sm, '@media': { print: { color: '#444' } } });
export const value = style({ margin: 0, fontWeight: 600, overflowWrap: 'anywhere', textAlign: 'end', marginInlineStart: 'auto' });
export const totalRow = style({ borderTop: `1px solid ${vars.color.border}`, paddingTop: space.sm, marginTop: space.xs });
export const total = style({ margin: 0, marginInlineStart: 'auto', fontWeight: 700, fontSize: font.size.lg });
/** Links and buttons that make no sense on paper. */
export const screenOnly = style({ '@media': { print: { display: 'none' } } });
