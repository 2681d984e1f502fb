import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import type { SignInResult } from '../../src/api/endpoints';
import type { SignInRequest } from '../../src/api/schemas';
import { activePaths, createInspectorStore } from '../../src/inspector/store';
import { inspectMode, keepInspectFlag, startInspector, withInspectFlag } from '../../src/lib/inspector';
import { MASK } from '../../src/lib/mask';
import { signInMachine } from '../../src/machines/signIn/signIn.machine';

describe('inspectMode', () => {
  it('reads the address first, then the stored toggle, then the build flag', () => {
    expect(inspectMode('?inspect=local', undefined, null)).toBe('local');
    expect(inspectMode('?inspect', undefined, null)).toBe('stately');
    expect(inspectMode('?from=/x&inspect=1', undefined, null)).toBe('stately');
    expect(inspectMode('', undefined, 'local')).toBe('local');
    expect(inspectMode('', 'true', null)).toBe('stately');
    expect(inspectMode('?inspect=off', 'true', 'local')).toBeNull();
    expect(inspectMode('?from=/inspect', undefined, null)).toBeNull();
    expect(inspectMode('', undefined, 'garbage')).toBeNull();
  });
});

describe('the flag stays in the address', () => {
  const base = 'http://localhost/login?inspect=local';
  it('adds the flag to a same-site address that lacks it, and leaves others alone', () => {
    expect(withInspectFlag('/account', 'local', base)).toBe('/account?inspect=local');
    expect(withInspectFlag('/register/verify?q=abc#x', 'stately', base)).toBe('/register/verify?q=abc&inspect=#x');
    expect(withInspectFlag('/account?inspect=off', 'local', base)).toBe('/account?inspect=off');
    expect(withInspectFlag('https://elsewhere.example/', 'local', base)).toBe('https://elsewhere.example/');
  });

  it('across pushState and replaceState', () => {
    window.history.replaceState(null, '', '/login?inspect=local');
    const undo = keepInspectFlag('local');
    try {
      window.history.pushState(null, '', '/account');
      expect(window.location.search).toBe('?inspect=local');
      window.history.replaceState(null, '', '/subscription?x=1');
      expect(window.location.pathname + window.location.search).toBe('/subscription?x=1&inspect=local');
    } finally {
      undo();
    }
    window.history.pushState(null, '', '/plain');
    expect(window.location.search).toBe('');
  });
});

describe('activePaths', () => {
  it('names every active node of a nested value', () => {
    expect([...activePaths({ verify: { form: 'rejected' } })]).toEqual(['verify', 'verify.form', 'verify.form.rejected']);
    expect([...activePaths('submitting')]).toEqual(['submitting']);
    expect([...activePaths({ status: 'ready', history: 'loading' })].sort()).toEqual(['history', 'history.loading', 'status', 'status.ready']);
  });
});

describe('the inspector store', () => {
  it('lists machine actors only, logs each step with its time, and masks secrets as it records them', async () => {
    let clock = 1000;
    const store = createInspectorStore(() => (clock += 5));
    const machine = signInMachine.provide({
      actors: { signIn: fromPromise<SignInResult, SignInRequest>(async () => ({ success: false, message: 'Invalid email or password' })) },
    });
    const actor = createActor(machine, { input: { redirectTo: '/' }, inspect: store.inspect }).start();
    actor.send({ type: 'form.submit', values: { email: 'ana@example.com', password: 'Secret-Password-1' } });
    await waitFor(actor, (snapshot) => snapshot.matches({ form: 'rejected' }));

    const [listed, ...others] = store.actors();
    expect(others).toEqual([]); // the promise actor is not a machine
    expect(listed!.name).toBe('signIn');
    const steps = listed!.entries.map((e) => [e.eventType, e.value]);
    expect(steps).toEqual([
      ['xstate.init', { form: 'editing' }],
      ['form.submit', 'submitting'],
      ['xstate.done.actor.signIn', { form: 'rejected' }],
    ]);
    expect(listed!.entries.map((e) => e.time)).toEqual([...listed!.entries.map((e) => e.time)].sort((a, b) => a - b));
    const recorded = JSON.stringify(listed!.entries);
    expect(recorded).not.toContain('Secret-Password-1');
    expect(recorded).toContain(MASK);
    expect(recorded).toContain('ana@example.com');

    expect(store.isLive(listed!)).toBe(true);
    actor.stop();
    expect(store.isLive(listed!)).toBe(false);
  });

  it('tells its subscribers of every change', () => {
    const store = createInspectorStore();
    let calls = 0;
    store.subscribe(() => (calls += 1));
    createActor(createMachine({ id: 'tiny', initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } }), { inspect: store.inspect })
      .start()
      .send({ type: 'go' });
    expect(calls).toBe(2); // the start (its first snapshot) and the step
    expect(store.getVersion()).toBe(2);
  });

  it('lists an actor only once it has started: one React built and threw away never shows', () => {
    const store = createInspectorStore();
    const tiny = createMachine({ id: 'tiny', initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } });
    const discarded = createActor(tiny, { inspect: store.inspect });
    expect(store.actors()).toEqual([]);
    const used = createActor(tiny, { inspect: store.inspect }).start();
    used.send({ type: 'go' });
    expect(store.actors().map((a) => a.ref)).toEqual([used]);
    expect(store.actors()[0]!.entries.map((e) => e.value)).toEqual(['a', 'b']);
    discarded.stop();
    expect(store.actors().map((a) => a.ref)).toEqual([used]);
  });
});

describe('the Stately inspector', () => {
  it('says so when its window cannot open (a blocked pop-up)', async () => {
    const open = window.open;
    const opened: string[] = [];
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return null;
    }) as typeof window.open;
    try {
      let blocked = 0;
      const inspect = await startInspector(() => (blocked += 1));
      expect(opened).toEqual(['https://stately.ai/inspect']);
      expect(blocked).toBe(1);
      expect(typeof inspect).toBe('function');
    } finally {
      window.open = open;
    }
  });
});
