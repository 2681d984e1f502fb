import { globalStyle, style } from '@vanilla-extract/css';
import { breakpoint, radius, space, vars } from '../../styles/theme.css';

export const cards = style({
  display: 'grid', gap: space.lg,
  '@media': { [breakpoint.medium]: { gridTemplateColumns: '1fr 1fr', alignItems: 'start' } },
});
// The forms' submit buttons span their card, their words centred: less side padding changes nothing one
// sees, and leaves room for a longer label on one line (Bisaya's "I-update ang Password" in a half-width card).
globalStyle(`${cards} form button[type="submit"]`, { paddingInline: space.md });
// Avatar and controls stay side by side: the controls' column takes the rest of the row and may
// shrink, so a long error message wraps under the buttons instead of pushing the column below. It
// never shrinks below its widest button (a button's words stay on one line): where a button does not
// fit beside the avatar (Bisaya's "I-upload ang Litrato" on a phone), the controls go under it.
export const photoRow = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: space.md, marginBottom: space.md });
export const photoControls = style({ flex: '1 1 0', minWidth: 'min-content', display: 'grid', gap: space.sm, justifyItems: 'start' });
export const avatar = style({
  flex: 'none', width: 88, height: 88, borderRadius: radius.pill, objectFit: 'cover', background: vars.color.surfaceRaised,
  border: `2px solid ${vars.color.border}`, display: 'grid', placeItems: 'center', fontSize: '2rem', fontWeight: 700,
});
export const photoActions = style({ display: 'flex', gap: space.sm, flexWrap: 'wrap' });
globalStyle(`${photoActions} > button`, { whiteSpace: 'nowrap' });
export const fileInput = style({ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' });
export const cardTitle = style({ marginTop: 0 });

/* Issue 36: signed-in devices and the change of email. */
export const deviceList = style({ listStyle: 'none', margin: `0 0 ${space.md}`, padding: 0, display: 'grid', gap: space.sm });
export const deviceRow = style({
  display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: space.sm,
  padding: space.sm, border: `1px solid ${vars.color.border}`, borderRadius: radius.sm,
});
export const deviceText = style({ flex: '1 1 12rem', minWidth: 0, display: 'grid', gap: 2 });
globalStyle(`${deviceText} > p`, { margin: 0, overflowWrap: 'anywhere' });
export const deviceName = style({ fontWeight: 600, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: space.sm });
export const deviceBadge = style({
  fontSize: '0.8125rem', fontWeight: 600, padding: `0 ${space.sm}`, borderRadius: radius.pill,
  background: vars.color.surfaceRaised, border: `1px solid ${vars.color.border}`, color: vars.color.text,
});
export const emailLine = style({ margin: `0 0 ${space.md}`, overflowWrap: 'anywhere' });
export const formActions = style({ display: 'flex', flexWrap: 'wrap', gap: space.sm });
/** The devices card spans the page from two columns on: a device's lines do not wrap in half a page. */
export const wideCard = style({ '@media': { [breakpoint.medium]: { gridColumn: '1 / -1' } } });
export const deviceGrid = style({
  '@media': { [breakpoint.large]: { gridTemplateColumns: '1fr 1fr' } },
});
