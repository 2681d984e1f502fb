import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { readStoredSession, sessionMachine } from '../../src/machines/session/session.machine';
import { demoUser } from '../support/render';

describe('session storage (spec §4)', () => {
  it('restores only when both token and user exist', () => {
    expect(readStoredSession()).toBeNull();
    localStorage.setItem('token', 't');
    expect(readStoredSession()).toBeNull();
    localStorage.setItem('user', JSON.stringify(demoUser));
    expect(readStoredSession()).toEqual({ token: 't', user: demoUser });
  });
  it('ignores a user that is not JSON or not a user', () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', '{not json');
    expect(readStoredSession()).toBeNull();
    localStorage.setItem('user', JSON.stringify({ hello: 'world' }));
    expect(readStoredSession()).toBeNull();
  });
  it('boots from storage with the real actor, and logout clears token and user but keeps welcome-back', async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', JSON.stringify(demoUser));
    const session = createActor(sessionMachine).start();
    expect(session.getSnapshot().value).toBe('loading');
    await new Promise((r) => setTimeout(r, 0));
    expect(session.getSnapshot().value).toBe('signedIn');
    session.send({ type: 'session.login', accessToken: 'u', user: demoUser });
    expect(localStorage.getItem('welcomeBack')).toBe('true');
    session.send({ type: 'session.logout' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('welcomeBack')).toBe('true');
  });
});
