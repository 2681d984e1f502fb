import { style } from '@vanilla-extract/css';
import { radius, space, vars } from '../../styles/theme.css';

export const legal = style({ maxWidth: 760, margin: '0 auto', padding: `${space.xl} ${space.md}` });
/** The note, in a translation, that the English version prevails. */
export const prevails = style({
  margin: `0 0 ${space.md}`, padding: `${space.sm} ${space.md}`, borderLeft: `3px solid ${vars.color.accent}`,
  borderRadius: radius.sm, background: vars.color.surfaceRaised, color: vars.color.textMuted,
});
