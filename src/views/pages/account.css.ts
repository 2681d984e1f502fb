import { style } from '@vanilla-extract/css';
import { breakpoint, radius, space, vars } from '../../styles/theme.css';

export const cards = style({
  display: 'grid', gap: space.lg,
  '@media': { [breakpoint.medium]: { gridTemplateColumns: '1fr 1fr', alignItems: 'start' } },
});
export const photoRow = style({ display: 'flex', alignItems: 'center', gap: space.md, flexWrap: 'wrap', marginBottom: space.md });
export const avatar = style({
  width: 88, height: 88, borderRadius: radius.pill, objectFit: 'cover', background: vars.color.surfaceRaised,
  border: `2px solid ${vars.color.border}`, display: 'grid', placeItems: 'center', fontSize: '2rem', fontWeight: 700,
});
export const photoActions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap' });
export const fileInput = style({ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' });
export const cardTitle = style({ marginTop: 0 });
