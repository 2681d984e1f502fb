import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { MASK } from '../src/lib/mask';
import { generatePaths, payloadWords, scenarioOf, scenariosDocument, stateWords } from './support/paths';

// A small flow: the generator walks it without a test runner, and the steps read in its own words.
const demo = createMachine({
  id: 'demo',
  types: {} as { events: { type: 'code.submit'; otpCode: string } },
  meta: { events: { 'code.submit': 'The person submits the code' } },
  initial: 'verify',
  states: {
    verify: {
      description: 'Waiting for the code',
      initial: 'editing',
      states: { editing: { description: 'Filling in the form' }, rejected: { description: 'Showing why the server said no' } },
      on: { 'code.submit': 'checking' },
    },
    checking: {
      description: 'Checking the code',
      invoke: { id: 'verify', src: 'verify', onDone: 'done', onError: 'verify.rejected' },
    },
    done: { type: 'final', description: 'Signed in' },
  },
});

const fixtures = {
  machine: demo,
  events: { 'code.submit': [{ type: 'code.submit' as const, otpCode: 'ABC123' }] },
  invocations: { verify: { done: [{ message: 'Verified' }], error: [new Error('Wrong code')] } },
} as const;

describe('scenarios (the model-based paths as readable steps)', () => {
  it('generates every path without vitest-only helpers', () => {
    const { paths, states } = generatePaths(fixtures as never);
    expect([...states].sort()).toEqual(['checking', 'done', 'verify.editing', 'verify.rejected']);
    expect(paths.length).toBeGreaterThanOrEqual(2);
  });

  it('writes each step as the event in words, its masked values, then the state in words', () => {
    const { paths } = generatePaths(fixtures as never);
    const scenarios = paths.map((p) => scenarioOf(demo, p));
    expect(scenarios).toContainEqual({
      start: 'Waiting for the code: Filling in the form',
      steps: [
        `The person submits the code (otpCode ${MASK}) → Checking the code`,
        'verify failed (“Wrong code”) → Waiting for the code: Showing why the server said no',
        `The person submits the code (otpCode ${MASK}) → Checking the code`,
      ],
    });
    expect(JSON.stringify(scenarios)).not.toContain('ABC123');
    expect(scenariosDocument(demo, paths)).toContain('"machine": "demo"');
  });

  it('reads done answers, empty fields and parallel states', () => {
    expect(payloadWords({ type: 'xstate.done.actor.x', output: { message: 'Saved' } } as never)).toBe('“Saved”');
    expect(payloadWords({ type: 'form.submit', values: { email: '', firstName: 'Nena' } } as never)).toBe('email (empty), firstName Nena');
    const parallel = createMachine({
      id: 'p',
      type: 'parallel',
      states: { a: { initial: 'x', states: { x: { description: 'A is x' } } }, b: { initial: 'y', states: { y: {} } } },
    });
    expect(stateWords(parallel, { a: 'x', b: 'y' })).toBe('A is x + y');
  });
});
