/**
 * The model-based path generator (no test runner needed): with @xstate/graph, the shortest path to
 * every state plus one path per edge of the adjacency map, so every transition is walked. Used by
 * the model-based harness (./model.ts), and by `scenarioOf` to write the same paths as readable
 * steps for QA and product (docs/statecharts/scenarios, shown in the /dev/statecharts gallery).
 */
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, EventObject, InputFrom, StateValue } from 'xstate';
import { eventWords } from '../../scripts/statechart-writer';
import { maskSecrets } from '../../src/lib/mask';
import type { InvocationFixture, InvocationFixtures } from './flow';

type UserEvent<M extends AnyStateMachine> = EventFromLogic<M>;
export type UserEventType<M extends AnyStateMachine> = UserEvent<M>['type'];
export type EventOf<M extends AnyStateMachine, K> = Extract<UserEvent<M>, { type: K }>;

/** Every event type of the machine must have payloads (a new event without one fails to compile). */
export type EventFixtures<M extends AnyStateMachine> = { [K in UserEventType<M>]: Array<EventOf<M, K>> };

export interface PathSpec<M extends AnyStateMachine> {
  machine: M;
  input?: InputFrom<M>;
  inputs?: Array<InputFrom<M>>;
  prune?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;
  events: EventFixtures<M>;
  invocations: InvocationFixtures<M>;
  serializeContext?: (snapshot: AnyMachineSnapshot) => string;
}

export function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) => (child && (typeof child === 'string' || Object.keys(child).length) ? `${key}.${stateKey(child as StateValue)}` : key))
    .join(',');
}


export interface Step {
  event: EventObject;
  state: AnyMachineSnapshot;
}

/** Events carrying files or errors stay distinct (JSON alone writes both as {}). */
function serializeEvent(event: EventObject): string {
  return JSON.stringify(event, (_key, value: unknown) => {
    if (typeof File !== 'undefined' && value instanceof File) return `File(${value.name}, ${value.type}, ${value.size})`;
    if (value instanceof Error) return `Error(${value.message})`;
    return value;
  });
}

export interface ModelPath {
  description: string;
  steps: Step[];
  input: unknown;
}


export function generatePaths<M extends AnyStateMachine>(spec: PathSpec<M>) {
  const inputs = spec.inputs ?? [spec.input];
  const all = inputs.map((input, index) => {
    const generated = generatePathsFrom(spec, input);
    const prefix = inputs.length > 1 ? `[entry ${index + 1}] ` : '';
    return { ...generated, paths: generated.paths.map((p) => ({ ...p, description: prefix + p.description })) };
  });
  return {
    paths: all.flatMap((g) => g.paths),
    serializeState: all[0]!.serializeState,
    states: new Set(all.flatMap((g) => [...g.states])),
  };
}

function generatePathsFrom<M extends AnyStateMachine>(spec: PathSpec<M>, input: unknown) {
  const { machine } = spec;
  const serializeState = (s: AnyMachineSnapshot) =>
    JSON.stringify(s.value) + (spec.serializeContext ? `|${spec.serializeContext(s)}` : '');
  const candidates: EventObject[] = [
    ...(Object.values(spec.events) as EventObject[][]).flat(),
    ...(Object.entries(spec.invocations) as Array<[string, InvocationFixture]>).flatMap(([id, fixture]) => [
      ...(fixture.done ?? []).map((output) => ({ type: `xstate.done.actor.${id}`, output, actorId: id })),
      ...(fixture.error ?? []).map((error) => ({ type: `xstate.error.actor.${id}`, error, actorId: id })),
    ]),
  ];
  const options = {
    input: input as InputFrom<M>,
    serializeEvent: serializeEvent as never,
    serializeState: serializeState as never,
    events: ((s: AnyMachineSnapshot) =>
      candidates.filter((e) => s.status === 'active' && s.can(e) && (spec.prune ? spec.prune(s, e) : true))) as never,
  };
  const shortest = getShortestPaths(machine, options) as unknown as Array<{ state: AnyMachineSnapshot; steps: Step[] }>;
  const toState = new Map(shortest.map((p) => [serializeState(p.state), p.steps]));
  const edges = adjacencyMapToArray(getAdjacencyMap(machine, options)) as unknown as Array<{
    state: AnyMachineSnapshot; event: EventObject; nextState: AnyMachineSnapshot;
  }>;

  const sequences: Step[][] = [...toState.values()];
  for (const edge of edges) {
    const prefix = toState.get(serializeState(edge.state));
    if (!prefix) continue;
    sequences.push([...prefix, { event: edge.event, state: edge.nextState }]);
  }
  // Drop any path that is a prefix of another: the longer one walks it too.
  const signature = (steps: Step[]) => steps.map((s) => `${serializeEvent(s.event)}>${serializeState(s.state)}`);
  const signatures = sequences.map(signature);
  const kept = sequences.filter((_, i) => {
    const mine = signatures[i]!;
    return !signatures.some((other, j) => j !== i && other.length > mine.length && mine.every((part, k) => other[k] === part))
      && signatures.findIndex((other) => other.join('\n') === mine.join('\n')) === i;
  });
  const paths: ModelPath[] = kept.map((steps) => ({
    steps,
    input,
    description: steps
      .map((s) => (s.event.type === 'xstate.init' ? stateKey(s.state.value) : `${s.event.type} → ${stateKey(s.state.value)}`))
      .join(' ⇒ '),
  }));
  return { paths, serializeState, states: new Set(shortest.map((p) => stateKey(p.state.value))) };
}


/** One generated path as readable steps: what to do, then where the flow is. */
export interface Scenario {
  start: string;
  steps: string[];
}

function leafPaths(value: StateValue, prefix: string[] = []): string[][] {
  if (typeof value === 'string') return [[...prefix, value]];
  return Object.entries(value).flatMap(([key, child]) =>
    child && (typeof child === 'string' || Object.keys(child).length) ? leafPaths(child as StateValue, [...prefix, key]) : [[...prefix, key]],
  );
}

/** A state in the machine's words: the description of each active leaf, with the parent's where the leaf has none. */
export function stateWords(machine: AnyStateMachine, value: StateValue): string {
  return leafPaths(value)
    .map((path) => {
      const nodes = path.map((_, i) => machine.getStateNodeById(`${machine.id}.${path.slice(0, i + 1).join('.')}`));
      const leaf = nodes.at(-1)!;
      const parent = [...nodes].reverse().slice(1).find((n) => n.description);
      const words = leaf.description ?? leaf.key;
      return parent && ['editing', 'invalid', 'rejected'].includes(leaf.key) ? `${parent.description}: ${words}` : words;
    })
    .join(' + ');
}

/** The values an event carries, masked, in one line ('email ana@example.com, password ••••••'). */
export function payloadWords(event: EventObject): string {
  const e = event as EventObject & { output?: unknown; error?: unknown };
  if (event.type.startsWith('xstate.error.actor.')) return e.error instanceof Error ? `“${e.error.message}”` : '';
  if (event.type.startsWith('xstate.done.actor.')) {
    const message = e.output && typeof e.output === 'object' && 'message' in e.output ? (e.output as { message: unknown }).message : null;
    return typeof message === 'string' && message ? `“${message}”` : '';
  }
  const parts: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (typeof File !== 'undefined' && value instanceof File) parts.push(`${key} ${value.name} (${value.type}, ${value.size} bytes)`);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
    else if (key !== 'type') parts.push(`${key} ${value === '' ? '(empty)' : String(value)}`);
  };
  walk(maskSecrets({ ...event }), '');
  return parts.join(', ');
}

export function scenarioOf(machine: AnyStateMachine, path: ModelPath): Scenario {
  const [first, ...rest] = path.steps;
  const input = path.input === undefined ? '' : payloadWords({ type: 'input', ...(path.input as object) });
  return {
    start: `${stateWords(machine, first!.state.value)}${input ? ` (input: ${input})` : ''}`,
    steps: rest.map((step) => {
      const payload = payloadWords(step.event);
      return `${eventWords(machine, step.event.type)}${payload ? ` (${payload})` : ''} → ${stateWords(machine, step.state.value)}`;
    }),
  };
}

/** The file the model tests keep in step with their paths (`npm run scenarios` rewrites them). */
export function scenariosDocument(machine: AnyStateMachine, paths: ModelPath[]): string {
  return `${JSON.stringify({ machine: machine.id, scenarios: paths.map((p) => scenarioOf(machine, p)) }, null, 1)}\n`;
}
