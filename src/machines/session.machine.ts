/**
 * The session (spec §4): restores token and user from the browser at start-up, stores them on
 * login with the welcome-back flag, clears them on logout, and discards them on any 401.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../api/schemas';
import { STORAGE_KEYS, readItem, removeItem, writeItem } from '../lib/storage';

export interface StoredSession {
  token: string;
  user: User;
}

export interface SessionContext {
  token: string | null;
  user: User | null;
}

export type SessionEvent =
  | { type: 'session.login'; accessToken: string; user: User }
  | { type: 'session.logout' }
  | { type: 'session.unauthorized' }
  | { type: 'user.update'; changes: Partial<User> };

function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return typeof user.id === 'string' && typeof user.email === 'string' && typeof user.firstName === 'string';
}

/** Reads 'token' and 'user'; a session is restored only when both exist and the user parses. */
export function readStoredSession(): StoredSession | null {
  const token = readItem(STORAGE_KEYS.token);
  const rawUser = readItem(STORAGE_KEYS.user);
  if (!token || !rawUser) return null;
  try {
    const user: unknown = JSON.parse(rawUser);
    return isStoredUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    restoreSession: fromPromise<StoredSession | null>(async () => readStoredSession()),
  },
  guards: {
    hasStoredSession: ({ event }) =>
      'output' in event && event.output !== null && typeof event.output === 'object',
  },
  actions: {
    restore: assign(({ event }) => {
      const stored = (event as unknown as { output: StoredSession }).output;
      return { token: stored.token, user: stored.user };
    }),
    storeSession: assign(({ event }) => {
      if (event.type !== 'session.login') return {};
      writeItem(STORAGE_KEYS.token, event.accessToken);
      writeItem(STORAGE_KEYS.user, JSON.stringify(event.user));
      writeItem(STORAGE_KEYS.welcomeBack, 'true');
      return { token: event.accessToken, user: event.user };
    }),
    clearSession: assign(() => {
      removeItem(STORAGE_KEYS.token);
      removeItem(STORAGE_KEYS.user);
      return { token: null, user: null };
    }),
    updateUser: assign(({ context, event }) => {
      if (event.type !== 'user.update' || !context.user) return {};
      const user = { ...context.user, ...event.changes };
      writeItem(STORAGE_KEYS.user, JSON.stringify(user));
      return { user };
    }),
  },
}).createMachine({
  id: 'session',
  context: { token: null, user: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          { guard: 'hasStoredSession', target: 'signedIn', actions: 'restore' },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut', actions: 'clearSession' },
      },
    },
    signedOut: {
      on: {
        'session.login': { target: 'signedIn', actions: 'storeSession' },
      },
    },
    signedIn: {
      on: {
        'session.login': { target: 'signedIn', actions: 'storeSession' },
        'user.update': { actions: 'updateUser' },
        'session.logout': { target: 'signedOut', actions: 'clearSession' },
        'session.unauthorized': { target: 'signedOut', actions: 'clearSession' },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
