/** The login link's view props (zag's connect): still signing in, or why it could not. */
import type { SnapshotFrom } from 'xstate';
import type { LoginLinkMachine } from './loginLink.machine';

export function connectLoginLink(state: SnapshotFrom<LoginLinkMachine>, _send?: unknown) {
  return {
    failed: state.matches('failed'),
    message: state.context.serverMessage,
  };
}
