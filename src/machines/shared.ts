/** Pieces every form flow shares, so each chart reads the same way. */
import type { AuthResult } from '../api/schemas';
import { NETWORK_MESSAGE } from '../api/http';

/** The three faces of a form: being filled in, showing field errors, showing the server's refusal. */
export const formStates = {
  initial: 'editing',
  states: {
    editing: { description: 'Filling in the form' },
    invalid: { description: 'Showing what to fix in the fields' },
    rejected: { description: 'Showing why the server said no' },
  },
} as const;

/** The message a person should read for a failed call (product.md#errors). */
export function errorMessageOf(event: unknown): string {
  const error = typeof event === 'object' && event !== null && 'error' in event ? event.error : undefined;
  return error instanceof Error && error.message ? error.message : NETWORK_MESSAGE();
}

/**
 * A toast a flow raises. A flow shows one toast at a time: a later toast of the same flow replaces
 * the earlier one, so a flow that ends in one outcome leaves one toast (the view keys it by flow).
 */
export type Notify = { kind: 'success' | 'error' | 'info'; message: Text };

/**
 * What a chart hands a view to show (issue 20): a catalog message (`m.some_id`, a function the view calls
 * in the language in use; the diagrams call it in English) or words that are already text (the server's
 * answer, in the viewer's language).
 */
export type Text = string | (() => string);

/** The text to show for a `Text`, in the language in use. */
export const textOf = (text: Text): string => (typeof text === 'function' ? text() : text);
export type StartSession = { result: AuthResult };
/**
 * Where a flow sends the viewer; `replace` replaces the history entry (a correction or a choice
 * written in place: focus and scroll stay where they are). `state` is kept with the history entry
 * (survives a reload and back/forward in this tab, never leaves the browser).
 */
export type Navigation = { path: string; replace?: boolean; state?: unknown };

/** An onError action that hands the failed call's message (product.md#errors) to the named assign action. */
export function withErrorMessage<const T extends string>(type: T) {
  return { type, params: ({ event }: { event: { error: unknown } }) => ({ message: errorMessageOf(event) }) };
}
