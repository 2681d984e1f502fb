/** The offline inspector's panel: its own colours (readable on both themes), above the app. */
import { globalStyle, style } from '@vanilla-extract/css';

export const panel = style({
  position: 'fixed',
  right: 8,
  bottom: 8,
  zIndex: 1000,
  width: 'min(440px, calc(100vw - 16px))',
  maxHeight: '70vh',
  overflow: 'auto',
  background: '#ffffff',
  color: '#1f2328',
  border: '2px solid #57606a',
  borderRadius: 8,
  boxShadow: '0 4px 16px rgba(0, 0, 0, 0.25)',
  font: '13px/1.4 system-ui, sans-serif',
  padding: 8,
});

export const collapsed = style({ maxHeight: 'none', width: 'auto' });

export const bar = style({ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' });

export const heading = style({ fontSize: 14, margin: '0 auto 0 0' });

export const subheading = style({ fontSize: 13, margin: '8px 0 4px' });

export const button = style({
  font: 'inherit',
  padding: '2px 8px',
  border: '1px solid #57606a',
  borderRadius: 4,
  background: '#f6f8fa',
  color: '#1f2328',
  cursor: 'pointer',
  selectors: { '&[aria-pressed="true"], &[aria-current="true"]': { background: '#0a3069', color: '#ffffff' } },
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 4 });

export const stateBox = style({
  border: '1px solid #8c959f',
  borderRadius: 6,
  padding: '2px 6px',
  margin: '3px 0',
  background: '#ffffff',
});

export const activeBox = style({ borderColor: '#0a3069', borderWidth: 2, background: '#ddf4ff' });

export const stateName = style({ fontWeight: 600 });

export const muted = style({ color: '#57606a' });

export const log = style({ listStyle: 'none', margin: 0, padding: 0, maxHeight: 180, overflow: 'auto' });

export const logButton = style([button, { width: '100%', textAlign: 'left', margin: '1px 0', border: '1px solid #d0d7de' }]);

export const pre = style({ background: '#f6f8fa', padding: 6, margin: 0, maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap' });

globalStyle(`${panel} :focus-visible`, { outline: '3px solid #0969da', outlineOffset: 1 });
