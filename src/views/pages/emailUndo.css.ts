/** The "this wasn't me" page: its two ways on side by side, wrapping on a phone. */
import { style } from '@vanilla-extract/css';
import { space } from '../../styles/theme.css';

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: space.sm, marginTop: space.md });
