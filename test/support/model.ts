/**
 * Model-based testing harness. For any machine it:
 *  1. generates paths with @xstate/graph: the shortest path to every state, plus one path per edge
 *     of the adjacency map, so every transition is walked, not only every state;
 *  2. refuses to run when a reached state has no assertion or a walked event has no executor;
 *  3. executes each path against the real rendered view, whose actors are deferreds, checking after
 *     every step that the live actor is in the expected state and that the person sees it;
 *  4. records, through inspection of the live actor, which state nodes and transitions really ran,
 *     and fails when any state or transition of the machine was never walked.
 */
import { getStateNodes } from '@xstate/graph';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyTransitionDefinition,
  EventObject,
  InputFrom,
  InspectionEvent,
} from 'xstate';
import { createDeferredActors, type DeferredActors } from './deferred';
import type { InvocationFixtures } from './flow';
import { generatePaths, scenariosDocument, stateKey, type ModelPath } from './paths';

export { generatePaths, stateKey, type ModelPath } from './paths';

import type { EventFixtures, EventOf, UserEventType } from './paths';

export type { EventFixtures } from './paths';

export interface RunTools {
  actors: DeferredActors;
  /** Pass to the view (FlowOverrides.inspect or createActor's inspect) so the harness sees the live actor. */
  inspect: (event: InspectionEvent) => void;
}

export interface ModelSpec<M extends AnyStateMachine, R> {
  machine: M;
  /** Where the flow starts; several inputs (a URL per entry point) each get their own paths. */
  input?: InputFrom<M>;
  inputs?: Array<InputFrom<M>>;
  /** Leave an event out of some states for traversal (its transition must still be walked elsewhere). */
  prune?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;
  events: EventFixtures<M>;
  /** Done and error outputs per invoke id; the harness answers the view's deferred actor with them. */
  invocations: InvocationFixtures<M>;
  /** Extra context that tells states apart for traversal (default: the state value alone). */
  serializeContext?: (snapshot: AnyMachineSnapshot) => string;
  render: (tools: RunTools, input: InputFrom<M> | undefined) => R | Promise<R>;
  /**
   * Whether this run's paths are the ones docs/statecharts/scenarios/ lists (default yes); a second run of
   * the same machine in another language, whose events carry that language's data, says no.
   */
  scenarios?: boolean;
  /** What a person sees in each state, keyed by dotted state value ('form.editing'). */
  states: Record<string, (run: R, snapshot: AnyMachineSnapshot) => void | Promise<void>>;
  /** How a person (or the system) causes each event in the view. */
  executors: { [K in UserEventType<M>]: (run: R, event: EventOf<M, K>, tools: RunTools) => void | Promise<void> };
}

function guardName(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

export function transitionKey(t: AnyTransitionDefinition): string {
  const targets = (t.target ?? []).map((node) => node.id).join(',') || '(self)';
  const guard = guardName(t.guard);
  return `${t.source.id} --${t.eventType || 'always'}${guard ? ` [${guard}]` : ''}--> ${targets}`;
}

export function allTransitions(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const definitions of node.transitions.values()) for (const t of definitions) keys.push(transitionKey(t));
    for (const t of node.always ?? []) keys.push(transitionKey(t));
  }
  return [...new Set(keys)];
}

export function allStateIds(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.id);
}

function invocationsOf(machine: AnyStateMachine): Array<{ id: string; src: string }> {
  const list: Array<{ id: string; src: string }> = [];
  for (const node of getStateNodes(machine.root)) {
    for (const inv of node.invoke) list.push({ id: inv.id, src: typeof inv.src === 'string' ? inv.src : inv.id });
  }
  return list;
}

/** What a spec lacks before any path runs: assertions, executors, invocation fixtures. */
export function auditSpec<M extends AnyStateMachine, R>(spec: ModelSpec<M, R>, paths: ModelPath[], states: Set<string>) {
  const invocations = invocationsOf(spec.machine);
  const walked = new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
  const invokeEvents = new Set(invocations.flatMap((i) => [`xstate.done.actor.${i.id}`, `xstate.error.actor.${i.id}`]));
  return {
    missingAssertions: [...states].filter((key) => !spec.states[key]),
    staleAssertions: Object.keys(spec.states).filter((key) => !states.has(key)),
    missingExecutors: [...walked].filter((type) => type !== 'xstate.init' && !invokeEvents.has(type) && !(type in spec.executors)),
    missingInvocationFixtures: invocations.filter((i) => !spec.invocations[i.id]).map((i) => i.id),
  };
}

/** The states and transitions of the machine that no executed path walked. */
export function coverageGaps(machine: AnyStateMachine, coveredStates: Set<string>, coveredTransitions: Set<string>) {
  const stateIds = allStateIds(machine);
  const transitions = allTransitions(machine);
  return {
    states: stateIds.length,
    transitions: transitions.length,
    unvisited: stateIds.filter((id) => !coveredStates.has(id)),
    unwalked: transitions.filter((key) => !coveredTransitions.has(key)),
  };
}

/** Defines the model-based suite of one machine against its view. */
export function describeModel<M extends AnyStateMachine, R>(name: string, spec: ModelSpec<M, R>) {
  const { paths, serializeState, states } = generatePaths(spec);
  const invocations = invocationsOf(spec.machine);
  const coveredTransitions = new Set<string>();
  const coveredStates = new Set<string>();

  describe(`${name} (model-based)`, () => {
    it('has an assertion for every reachable state and an executor for every walked event', () => {
      expect(auditSpec(spec, paths, states)).toEqual({
        missingAssertions: [], staleAssertions: [], missingExecutors: [], missingInvocationFixtures: [],
      });
    });

    for (const path of paths) {
      it(`walks ${path.description}`, async () => {
        const tools: RunTools = {
          actors: createDeferredActors([...new Set(invocations.map((i) => i.src))]),
          inspect: () => {},
        };
        let live: { getSnapshot(): AnyMachineSnapshot } | undefined;
        tools.inspect = (event) => {
          const ref = event.actorRef as unknown as { logic?: { id?: string }; getSnapshot(): AnyMachineSnapshot; _parent?: unknown };
          if (ref.logic?.id !== spec.machine.id || ref._parent) return;
          live = ref;
          if (event.type === '@xstate.microstep') {
            for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
              coveredTransitions.add(transitionKey(t));
              // Leaving a state proves it was entered, even a transient one such as 'routing'.
              coveredStates.add(t.source.id);
            }
          }
          if (event.type === '@xstate.snapshot') {
            const nodes = (event.snapshot as unknown as { _nodes?: Array<{ id: string }> })._nodes ?? [];
            for (const node of nodes) coveredStates.add(node.id);
          }
        };
        const run = await spec.render(tools, path.input as InputFrom<M> | undefined);
        for (const step of path.steps) {
          if (step.event.type !== 'xstate.init') {
            const type = step.event.type;
            const invocation = invocations.find((i) => type === `xstate.done.actor.${i.id}` || type === `xstate.error.actor.${i.id}`);
            if (invocation) {
              const e = step.event as unknown as { output?: unknown; error?: unknown };
              await waitFor(() => expect(tools.actors.pending(invocation.src)).toBeGreaterThan(0));
              if (type.startsWith('xstate.done')) tools.actors.resolve(invocation.src, e.output);
              else tools.actors.reject(invocation.src, e.error);
            } else {
              const executor = spec.executors[type as UserEventType<M>] as (r: R, e: EventObject, t: RunTools) => unknown;
              if (!executor) throw new Error(`No executor for event "${type}"`);
              await executor(run, step.event, tools);
            }
          }
          await waitFor(() => {
            expect(live, 'the view never started the machine').toBeDefined();
            expect(serializeState(live!.getSnapshot())).toBe(serializeState(step.state));
          });
          const key = stateKey(step.state.value);
          const assertion = spec.states[key];
          if (!assertion) throw new Error(`No assertion for state "${key}"`);
          await assertion(run, live!.getSnapshot());
        }
      });
    }

    // The same paths as readable steps for QA and product (the /dev/statecharts gallery); `npm run scenarios` rewrites them.
    if (spec.scenarios !== false) {
      it(`lists its paths for QA in docs/statecharts/scenarios/${spec.machine.id}.json`, async () => {
        await expect(scenariosDocument(spec.machine, paths)).toMatchFileSnapshot(`../../docs/statecharts/scenarios/${spec.machine.id}.json`);
      });
    }

    it('walked every state and every transition of the machine', () => {
      const gaps = coverageGaps(spec.machine, coveredStates, coveredTransitions);
      console.info(
        `[coverage] ${name}: states ${gaps.states - gaps.unvisited.length}/${gaps.states}, ` +
          `transitions ${gaps.transitions - gaps.unwalked.length}/${gaps.transitions}, paths ${paths.length}`,
      );
      expect({ unvisited: gaps.unvisited, unwalked: gaps.unwalked }).toEqual({ unvisited: [], unwalked: [] });
    });
  });
}
