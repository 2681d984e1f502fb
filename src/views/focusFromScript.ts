/**
 * Focus moved by the app (a new page's heading, an error box), drawn as a ring only for someone using the
 * keyboard. Chromium treats focus from script after a fresh page load (back from the bank's page) as
 * :focus-visible, so a mouse or touch user saw a box round the H1. The last input decides: a key press says keyboard; a pointer, or nothing yet, says quiet (global.css.ts: [data-quiet-focus]).
 */
let keyboard = false;
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', () => { keyboard = true; }, true);
  document.addEventListener('pointerdown', () => { keyboard = false; }, true);
}

export function focusFromScript(element: HTMLElement, options?: FocusOptions): void {
  // Kept after blur: these elements are reached only from script, which sets it afresh each time.
  element.toggleAttribute('data-quiet-focus', !keyboard);
  element.focus(options);
}
