/** The model-based harness must be able to fail: a missing assertion, executor or walk is reported. */
import { describe, expect, it } from 'vitest';
import { assign, createMachine, fromPromise, setup } from 'xstate';
import { auditSpec, coverageGaps, generatePaths, transitionKey } from './support/model';

const machine = setup({
  types: { events: {} as { type: 'go' } | { type: 'back' } },
  actors: { load: fromPromise(async () => 1) },
  guards: { allowed: () => true },
}).createMachine({
  id: 'toy',
  initial: 'idle',
  states: {
    idle: { on: { go: { guard: 'allowed', target: 'busy' } } },
    busy: { invoke: { id: 'load', src: 'load', onDone: 'done', onError: 'idle' }, on: { back: 'idle' } },
    done: { type: 'final' },
  },
});

const base = {
  machine,
  events: { go: [{ type: 'go' as const }], back: [{ type: 'back' as const }] },
  invocations: { load: { done: [1], error: [new Error('x')] } },
  render: () => null,
};

describe('the model-based harness', () => {
  it('generates paths that reach every state and walk every edge', () => {
    const { paths, states } = generatePaths(base);
    expect([...states].sort()).toEqual(['busy', 'done', 'idle']);
    const walked = new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
    expect(walked).toEqual(new Set(['xstate.init', 'go', 'back', 'xstate.done.actor.load', 'xstate.error.actor.load']));
  });

  it('reports a state without an assertion and an event without an executor', () => {
    const { paths, states } = generatePaths(base);
    const audit = auditSpec(
      { ...base, states: { idle: () => {}, busy: () => {}, gone: () => {} }, executors: { go: () => {} } as never },
      paths,
      states,
    );
    expect(audit.missingAssertions).toEqual(['done']);
    expect(audit.staleAssertions).toEqual(['gone']);
    expect(audit.missingExecutors).toEqual(['back']);
  });

  it('reports an invocation without fixtures', () => {
    const { paths, states } = generatePaths(base);
    const audit = auditSpec({ ...base, invocations: {}, states: {}, executors: {} as never }, paths, states);
    expect(audit.missingInvocationFixtures).toEqual(['load']);
  });

  it('reports states and transitions that no path walked', () => {
    const idleGo = [...machine.root.states.idle!.transitions.values()].flat()[0]!;
    const gaps = coverageGaps(machine, new Set(['toy.idle', 'toy.busy']), new Set([transitionKey(idleGo)]));
    expect(gaps.unvisited).toEqual(['toy.done']);
    expect([...gaps.unwalked].sort()).toEqual([
      'toy.busy --back--> toy.idle',
      'toy.busy --xstate.done.actor.load--> toy.done',
      'toy.busy --xstate.error.actor.load--> toy.idle',
    ]);
    expect(transitionKey(idleGo)).toBe('toy.idle --go [allowed]--> toy.busy');
  });

  it('keeps events that carry files or errors apart', () => {
    const fileMachine = createMachine({
      types: {} as { events: { type: 'pick'; file: File } },
      id: 'files',
      initial: 'a',
      context: { name: '' },
      states: { a: { on: { pick: { actions: assign({ name: ({ event }) => event.file.name }) } } } },
    });
    const { paths } = generatePaths({
      machine: fileMachine,
      events: { pick: [{ type: 'pick', file: new File(['1'], 'one.png') }, { type: 'pick', file: new File(['2'], 'two.png') }] },
      invocations: {},
    });
    const picks = paths.flatMap((p) => p.steps.filter((s) => s.event.type === 'pick'));
    expect(picks).toHaveLength(2);
  });
});
