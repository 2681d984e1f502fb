import { style } from '@vanilla-extract/css';
import { space } from '../../../styles/theme.css';

/**
 * The download and delete buttons: side by side where they fit, else one under the other. A long label
 * (Bisaya's "I-delete na gyud ang akong account" on a phone) wraps inside its button instead of widening
 * the card's form past the card.
 */
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: space.sm, alignItems: 'flex-start', minWidth: 0 });
