/** The session's view props (zag's connect): the guards, the header, the account menu and the login page read these. */
import type { SnapshotFrom } from 'xstate';
import type { User } from '../../api/schemas';
import type { SessionEvent, SessionMachine } from './session.machine';

export function connectSession(state: SnapshotFrom<SessionMachine>, send: (event: SessionEvent) => void) {
  return {
    status: state.value as 'loading' | 'signedIn' | 'signedOut',
    signedIn: state.value === 'signedIn',
    user: state.context.user,
    welcomeBack: state.context.welcomeBack,
    logout: () => send({ type: 'session.logout' }),
    /** A saved profile change, so every view shows it at once. */
    updateUser: (changes: Partial<User>) => send({ type: 'user.update', changes }),
  };
}
