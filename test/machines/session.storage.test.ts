/** The session's browser storage (product.md#session-state, product.md#storage-keys): written only by its persistence actions. */
import { getShortestPaths } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { sessionMachine, type StoredState } from '../../src/machines/session/session.machine';
import { demoUser } from '../support/render';

async function boot() {
  const session = createActor(sessionMachine).start();
  await waitFor(session, (s) => !s.matches('loading'));
  return session;
}

describe('session storage', () => {
  it('a stored user that fails the schema signs the viewer out and clears token and user (issue 6, item 10)', async () => {
    for (const user of ['{not json', JSON.stringify({ hello: 'world' }), JSON.stringify({ ...demoUser, lastName: 7 })]) {
      localStorage.setItem('token', 'stale-token');
      localStorage.setItem('user', user);
      const session = await boot();
      expect(session.getSnapshot().value).toBe('signedOut');
      expect(localStorage.getItem('token')).toBeNull();
      expect(localStorage.getItem('user')).toBeNull();
      session.stop();
    }
  });

  it('a token without a user is cleared too, and the welcome-back flag stays', async () => {
    localStorage.setItem('token', 'stale-token');
    localStorage.setItem('welcomeBack', 'true');
    const session = await boot();
    expect(session.getSnapshot().value).toBe('signedOut');
    expect(session.getSnapshot().context.welcomeBack).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('welcomeBack')).toBe('true');
  });

  it('a graph traversal of the chart writes nothing to storage (effects live in named actions)', () => {
    const stored: StoredState = { session: { token: 'stored', user: demoUser }, broken: false, welcomeBack: true };
    const events = [
      { type: 'xstate.done.actor.restoreSession', output: stored, actorId: 'restoreSession' },
      { type: 'session.login', accessToken: 'fresh', user: demoUser },
      { type: 'user.update', changes: { firstName: 'Mariel' } },
      { type: 'session.logout' },
    ];
    const paths = getShortestPaths(sessionMachine, { events: events as never });
    expect(paths.length).toBeGreaterThan(1);
    expect(localStorage.length).toBe(0);
  });

  it('login writes token, user and welcome-back; a change of name is written; logout keeps welcome-back', async () => {
    const session = await boot();
    session.send({ type: 'session.login', accessToken: 'fresh', user: demoUser });
    expect(localStorage.getItem('token')).toBe('fresh');
    expect(localStorage.getItem('welcomeBack')).toBe('true');
    session.send({ type: 'user.update', changes: { firstName: 'Mariel' } });
    expect(JSON.parse(localStorage.getItem('user')!).firstName).toBe('Mariel');
    session.send({ type: 'session.logout' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('welcomeBack')).toBe('true');
  });
});
