/** The back office's own pieces: its bar, sections, tables, badges and the action panel. */
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

export const consolePage = style({ maxWidth: 1200, margin: '0 auto', padding: `${space.lg} ${space.md}`, '@media': { [breakpoint.medium]: { paddingLeft: space.xl, paddingRight: space.xl } } });
export const bar = style({
  display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: space.sm, justifyContent: 'space-between',
  borderBottom: `1px solid ${vars.color.border}`, paddingBottom: space.sm, marginBottom: space.lg,
});
export const nav = style({ display: 'flex', flexWrap: 'wrap', gap: space.xs, margin: 0, padding: 0, listStyle: 'none' });
export const navLink = style({
  display: 'inline-block', padding: `${space.xs} ${space.md}`, borderRadius: radius.pill, color: vars.color.text,
  textDecoration: 'none', minHeight: 32, lineHeight: '24px',
  // The current page keeps its colours under the pointer (a hover background under its light text read at 1.1:1).
  selectors: {
    '&:hover': { background: vars.color.surfaceRaised },
    '&[aria-current="page"], &[aria-current="page"]:hover': { background: vars.color.accent, color: vars.color.accentText },
  },
});
export const who = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: space.sm, fontSize: font.size.sm, color: vars.color.textMuted });
export const stack = style({ display: 'grid', gap: space.lg });
export const section = style({
  background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: radius.md, padding: space.md, minWidth: 0,
  '@media': { [breakpoint.medium]: { padding: space.lg } },
});
export const sectionTitle = style({ fontSize: font.size.lg, margin: `0 0 ${space.sm}` });
export const tableWrap = style({ overflowX: 'auto', maxWidth: '100%' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: font.size.sm });
globalStyle(`${table} caption`, { textAlign: 'start', color: vars.color.textMuted, padding: `0 0 ${space.xs}`, fontSize: font.size.sm });
globalStyle(`${table} th, ${table} td`, { textAlign: 'start', padding: `${space.xs} ${space.sm}`, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top' });
globalStyle(`${table} th`, { fontWeight: 600, whiteSpace: 'nowrap' });
// Ids and emails break only where they must (a table keeps them whole and scrolls sideways instead).
export const mono = style({ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflowWrap: 'break-word' });
export const nowrap = style({ whiteSpace: 'nowrap' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: space.sm, alignItems: 'center' });
export const rowEnd = style([row, { justifyContent: 'flex-end' }]);
export const small = style({ fontSize: font.size.sm });
export const searchForm = style({ display: 'grid', gap: space.sm, gridTemplateColumns: '1fr', '@media': { [breakpoint.medium]: { gridTemplateColumns: '1fr auto', alignItems: 'end' } } });
export const badge = styleVariants({
  ok: { color: vars.color.success, border: `1px solid ${vars.color.success}`, borderRadius: radius.pill, padding: '0 8px', fontSize: font.size.sm, whiteSpace: 'nowrap' },
  warn: { color: vars.color.danger, border: `1px solid ${vars.color.danger}`, borderRadius: radius.pill, padding: '0 8px', fontSize: font.size.sm, whiteSpace: 'nowrap' },
  plain: { color: vars.color.textMuted, border: `1px solid ${vars.color.border}`, borderRadius: radius.pill, padding: '0 8px', fontSize: font.size.sm, whiteSpace: 'nowrap' },
});
export const panel = style({
  border: `2px solid ${vars.color.accent}`, borderRadius: radius.md, padding: space.md, background: vars.color.surfaceRaised, display: 'grid', gap: space.md, marginTop: space.sm,
});
export const textarea = style({
  font: 'inherit', width: '100%', minHeight: 80, padding: `${space.sm} ${space.md}`, borderRadius: radius.sm,
  border: `1px solid ${vars.color.border}`, background: vars.color.surface, color: vars.color.text, resize: 'vertical',
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger } },
});
export const codes = style({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: space.sm, padding: 0, listStyle: 'none', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: font.size.lg });
export const qr = style({ width: 200, height: 200, background: '#fff', padding: space.sm, borderRadius: radius.sm });
export const grid2 = style({ display: 'grid', gap: space.md, '@media': { [breakpoint.medium]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } } });
export const pre = style({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: font.size.sm, margin: 0, maxHeight: 240, overflow: 'auto' });
export const linkButton = style({ background: 'none', border: 0, padding: 0, font: 'inherit', color: vars.color.accent, textDecoration: 'underline', cursor: 'pointer', minHeight: 24 });
/** One item of a section (a subscription, a payment): ruled off from the next, its lines close together. */
export const item = style({
  display: 'grid', gap: space.sm, paddingBlock: space.md, borderTop: `1px solid ${vars.color.border}`, minWidth: 0,
  selectors: { '&:first-of-type': { borderTop: 0, paddingTop: 0 }, '&:last-of-type': { paddingBottom: 0 } },
});
globalStyle(`${item} p, ${item} h3`, { margin: 0 });
export const pageHead = style({ display: 'grid', gap: space.xs });
globalStyle(`${pageHead} h1, ${pageHead} p`, { margin: 0 });
export const formSection = style([section, { display: 'grid', gap: space.md }]);
