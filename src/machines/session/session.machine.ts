/**
 * The session (product.md#session-state): restores token and user from the browser at start-up, stores them on
 * login with the welcome-back flag, clears them on logout, and discards them on any 401.
 * Context changes in `assign`; browser storage is written only by the named persistence actions
 * (`persistSession`, `forgetStoredSession`), so a graph traversal of this chart touches no storage.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { User } from '../../api/schemas';
import { STORAGE_KEYS, readItem, removeItem, writeItem } from '../../lib/storage';

export interface StoredSession {
  token: string;
  user: User;
}

/** What the browser holds at start-up. */
export interface StoredState {
  session: StoredSession | null;
  /** A half or unreadable session (a token without a valid user, or the reverse): cleared at start-up. */
  broken: boolean;
  welcomeBack: boolean;
}

export interface SessionContext {
  token: string | null;
  user: User | null;
  /** product.md#sign-in: set once a sign-in has stored the welcome-back flag in this browser. */
  welcomeBack: boolean;
}

export type SessionEvent =
  | { type: 'session.login'; accessToken: string; user: User }
  | { type: 'session.logout' }
  | { type: 'session.unauthorized' }
  | { type: 'user.update'; changes: Partial<User> };

function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return typeof user.id === 'string' && typeof user.email === 'string' && typeof user.firstName === 'string'
    && typeof user.lastName === 'string';
}

function parseUser(raw: string): User | null {
  try {
    const user: unknown = JSON.parse(raw);
    return isStoredUser(user) ? user : null;
  } catch {
    return null;
  }
}

/** Reads 'token' and 'user'; a session is restored only when both exist and the user parses. */
export function readStoredSession(): StoredSession | null {
  return readStoredState().session;
}

export function readStoredState(): StoredState {
  const token = readItem(STORAGE_KEYS.token);
  const rawUser = readItem(STORAGE_KEYS.user);
  const welcomeBack = readItem(STORAGE_KEYS.welcomeBack) === 'true';
  const user = rawUser ? parseUser(rawUser) : null;
  const session = token && user ? { token, user } : null;
  return { session, broken: !session && Boolean(token || rawUser), welcomeBack };
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    restoreSession: fromPromise<StoredState>(async () => readStoredState()),
  },
  guards: {
    hasStoredSession: (_, params: { stored: StoredState }) => params.stored.session !== null,
    isStoredSessionBroken: (_, params: { stored: StoredState }) => params.stored.broken,
  },
  actions: {
    restore: assign((_, { stored }: { stored: StoredState }) => ({
      token: stored.session?.token ?? null,
      user: stored.session?.user ?? null,
      welcomeBack: stored.welcomeBack,
    })),
    assignLogin: assign(({ event }) =>
      event.type === 'session.login' ? { token: event.accessToken, user: event.user, welcomeBack: true } : {},
    ),
    assignSignedOut: assign({ token: null, user: null }),
    assignUserChanges: assign(({ context, event }) =>
      event.type === 'user.update' && context.user ? { user: { ...context.user, ...event.changes } } : {},
    ),
    // The persistence actions: the only writers of the session's browser keys (product.md#session-state, product.md#storage-keys).
    persistSession: ({ context }) => {
      if (context.token) writeItem(STORAGE_KEYS.token, context.token);
      if (context.user) writeItem(STORAGE_KEYS.user, JSON.stringify(context.user));
      if (context.welcomeBack) writeItem(STORAGE_KEYS.welcomeBack, 'true');
    },
    forgetStoredSession: () => {
      removeItem(STORAGE_KEYS.token);
      removeItem(STORAGE_KEYS.user);
    },
  },
}).createMachine({
  id: 'session',
  description:
    'Who is signed in, for the whole app. At start-up the stored session is read back; signing in stores it, signing out or any 401 from the server forgets it.',
  meta: {
    title: 'Session',
    events: {
      'session.login': 'A flow signs the person in',
      'user.update': 'The person changes their name or photo',
      'session.logout': 'The person presses Logout',
      'session.unauthorized': 'The server answers 401 (session expired)',
    },
  },
  context: { token: null, user: null, welcomeBack: false },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the stored session',
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => ({ stored: event.output }) },
            target: 'signedIn',
            actions: { type: 'restore', params: ({ event }) => ({ stored: event.output }) },
          },
          {
            guard: { type: 'isStoredSessionBroken', params: ({ event }) => ({ stored: event.output }) },
            target: 'signedOut',
            actions: [{ type: 'restore', params: ({ event }) => ({ stored: event.output }) }, 'forgetStoredSession'],
          },
          { target: 'signedOut', actions: { type: 'restore', params: ({ event }) => ({ stored: event.output }) } },
        ],
        onError: { target: 'signedOut', actions: ['assignSignedOut', 'forgetStoredSession'] },
      },
    },
    signedOut: {
      description: 'Signed out',
      on: {
        'session.login': { target: 'signedIn', actions: ['assignLogin', 'persistSession'] },
      },
    },
    signedIn: {
      description: 'Signed in',
      on: {
        'session.login': { target: 'signedIn', actions: ['assignLogin', 'persistSession'] },
        'user.update': { actions: ['assignUserChanges', 'persistSession'] },
        'session.logout': { target: 'signedOut', actions: ['assignSignedOut', 'forgetStoredSession'] },
        'session.unauthorized': { target: 'signedOut', actions: ['assignSignedOut', 'forgetStoredSession'] },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
