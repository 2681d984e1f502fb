import { style } from '@vanilla-extract/css';
import { breakpoint, font, space } from '../../styles/theme.css';

export const nameRow = style({
  display: 'grid', gap: space.md,
  '@media': { [breakpoint.medium]: { gridTemplateColumns: '1fr 1fr' } },
});
export const terms = style({ display: 'flex', gap: space.sm, alignItems: 'flex-start', fontSize: font.size.sm });
