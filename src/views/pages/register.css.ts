import { style } from '@vanilla-extract/css';
import { breakpoint, font, space } from '../../styles/theme.css';

export const nameRow = style({
  display: 'grid', gap: space.md,
  // minmax(0, 1fr): a column may shrink below its input's intrinsic width, so the row fits its card.
  '@media': { [breakpoint.medium]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' } },
});
export const terms = style({ display: 'flex', gap: space.sm, alignItems: 'flex-start', fontSize: font.size.sm });
export const hint = style({ fontSize: font.size.sm, margin: 0 });
