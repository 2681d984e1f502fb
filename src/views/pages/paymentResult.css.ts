/** The payment result: its details (ui.css's detail lines, on the surface colour) and its actions side by side. */
import { style } from '@vanilla-extract/css';
import { font, space, vars } from '../../styles/theme.css';

// Wide enough for 'Payment Successful' on one line from medium width (narrowPage's 460 px wrapped it).
export const page = style({ maxWidth: 600, margin: '0 auto', padding: `${space.xl} ${space.md}` });
export const details = style({ textAlign: 'start', margin: `${space.md} 0`, display: 'grid', gap: space.sm });
export const list = style({ background: vars.color.surfaceRaised });
export const actions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: space.sm, marginTop: space.md });
/** "Start watching": under the actions, set apart by a rule. */
export const watch = style({ marginTop: space.lg, paddingTop: space.lg, borderTop: `1px solid ${vars.color.border}`, display: 'grid', gap: space.sm });
export const watchTitle = style({ margin: 0, fontSize: font.size.lg });
