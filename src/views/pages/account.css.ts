import { style } from '@vanilla-extract/css';
import { breakpoint, radius, space, vars } from '../../styles/theme.css';

export const cards = style({
  display: 'grid', gap: space.lg,
  '@media': { [breakpoint.medium]: { gridTemplateColumns: '1fr 1fr', alignItems: 'start' } },
});
// Avatar and controls stay side by side: the controls' column takes the rest of the row and may
// shrink, so a long error message wraps under the buttons instead of pushing the column below.
export const photoRow = style({ display: 'flex', alignItems: 'flex-start', gap: space.md, marginBottom: space.md });
export const photoControls = style({ flex: '1 1 0', minWidth: 0, display: 'grid', gap: space.sm, justifyItems: 'start' });
export const avatar = style({
  flex: 'none', width: 88, height: 88, borderRadius: radius.pill, objectFit: 'cover', background: vars.color.surfaceRaised,
  border: `2px solid ${vars.color.border}`, display: 'grid', placeItems: 'center', fontSize: '2rem', fontWeight: 700,
});
export const photoActions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap' });
export const fileInput = style({ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' });
export const cardTitle = style({ marginTop: 0 });
