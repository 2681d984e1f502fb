/** The undo page's view props (zag's connect). */
import type { EmailUndoContext } from './emailUndo.machine';

export function connectEmailUndo(state: { matches(value: 'noToken' | 'asking' | 'undoing' | 'undone' | 'failed'): boolean; context: EmailUndoContext }, send: (event: { type: 'undo.confirm' }) => void) {
  return {
    asking: state.matches('asking'),
    onConfirm: () => send({ type: 'undo.confirm' }),
    undoing: state.matches('undoing'),
    undone: state.matches('undone'),
    failed: state.matches('failed') || state.matches('noToken'),
    message: state.context.serverMessage,
  };
}
