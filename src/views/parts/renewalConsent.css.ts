import { style } from '@vanilla-extract/css';
import { font, space, vars } from '../../styles/theme.css';

/** The renewal sentence and its tick (product.md#renewal-consent): one block above the pay/confirm button. */
export const consent = style({ display: 'grid', gap: space.xs, margin: `${space.sm} 0` });
export const terms = style({ margin: 0 });
export const tick = style({ display: 'flex', alignItems: 'center', gap: space.sm, minHeight: 44, fontWeight: 600 });
export const box = style({ width: 20, height: 20, flex: 'none', accentColor: vars.color.accent });
export const missing = style({ outline: `2px solid ${vars.color.danger}`, outlineOffset: 2 });
export const error = style({ color: vars.color.danger, fontSize: font.size.sm, margin: 0 });
