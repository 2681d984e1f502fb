/** The undo page's view props (zag's connect). */
import type { EmailUndoContext } from './emailUndo.machine';

export function connectEmailUndo(state: { matches(value: 'noToken' | 'undoing' | 'undone' | 'failed'): boolean; context: EmailUndoContext }) {
  return {
    undoing: state.matches('undoing'),
    undone: state.matches('undone'),
    failed: state.matches('failed') || state.matches('noToken'),
    message: state.context.serverMessage,
  };
}
