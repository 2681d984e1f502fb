import { style } from '@vanilla-extract/css';
import { space } from '../../styles/theme.css';

export const legal = style({ maxWidth: 760, margin: '0 auto', padding: `${space.xl} ${space.md}` });
