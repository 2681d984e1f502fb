/** The payment result: the payment's details as label/value rows, and its actions side by side. */
import { style } from '@vanilla-extract/css';
import { font, radius, space, vars } from '../../styles/theme.css';

export const details = style({ textAlign: 'start', margin: `${space.md} 0`, display: 'grid', gap: space.sm });
export const list = style({
  margin: 0, padding: space.md, borderRadius: radius.md, border: `1px solid ${vars.color.border}`, background: vars.color.surfaceRaised,
  display: 'grid', gap: space.sm,
});
// Label and value on one line while they fit, the value under its label when not (390 px).
export const row = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: space.md, rowGap: 2 });
export const label = style({ color: vars.color.textMuted, fontSize: font.size.sm });
export const value = style({ margin: 0, fontWeight: 600, overflowWrap: 'anywhere', textAlign: 'end', marginInlineStart: 'auto' });
export const actions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: space.sm, marginTop: space.md });
