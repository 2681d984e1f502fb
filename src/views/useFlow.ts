/**
 * Starts a flow's machine for a view, with the view's actors and actions bound and any overrides.
 * The implementations are typed from the machine (`MachineImplementationsFrom`): every actor the
 * chart invokes must be provided with its exact input and output, and an action the chart does not
 * name, or one whose params differ, is a compile error.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useContext, useState } from 'react';
import type { Actor, ActorRef, AnyStateMachine, EventFromLogic, InputFrom, MachineImplementationsFrom, SnapshotFrom } from 'xstate';
import { FlowOverridesContext } from './services';

type Implementations<TMachine extends AnyStateMachine> = MachineImplementationsFrom<TMachine>;

/** Every actor the machine declares, typed as declared (a missing or renamed one does not compile). */
export type FlowActors<TMachine extends AnyStateMachine> = Required<NonNullable<Implementations<TMachine>['actors']>>;
/** The machine's actions, typed with their params (a view binds the ones the chart leaves to it). */
export type FlowActions<TMachine extends AnyStateMachine> = NonNullable<Implementations<TMachine>['actions']>;

export interface FlowOptions<TMachine extends AnyStateMachine> {
  actors: FlowActors<TMachine>;
  actions?: FlowActions<TMachine>;
  input?: InputFrom<TMachine>;
}

export function useFlow<TMachine extends AnyStateMachine>(machine: TMachine, options: FlowOptions<TMachine>): Actor<TMachine> {
  const overrides = useContext(FlowOverridesContext);
  // The machine is bound once per mount: useActorRef ignores later machines anyway.
  // provide() on a generic machine answers the wide machine type; it is the same machine, re-implemented.
  const [bound] = useState(
    () => machine.provide({ actors: { ...options.actors, ...overrides.actors }, actions: { ...options.actions, ...overrides.actions } }) as TMachine,
  );
  return useActorRef(bound, { input: options.input, inspect: overrides.inspect });
}

/**
 * What a connect function gets: the snapshot, `send` to raise the flow's events, and, for a flow whose
 * chart leaves its data in React Query (change plan), that data.
 */
export type Connect<TMachine extends AnyStateMachine, TProps, TData = undefined> = (
  snapshot: SnapshotFrom<TMachine>,
  send: (event: EventFromLogic<TMachine>) => void,
  data: TData,
) => TProps;

/** Props are equal when their data is: handlers only close over `send`, which never changes. */
function sameProps(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return typeof a === 'function' && typeof b === 'function';
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (typeof x === 'function' && typeof y === 'function') return true;
    // One level down for grouped props (a step's props); deeper objects compare by identity.
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype) {
      return Object.keys(x).length === Object.keys(y).length
        && Object.keys(x).every((k) => {
          const xv = (x as Record<string, unknown>)[k];
          const yv = (y as Record<string, unknown>)[k];
          return Object.is(xv, yv) || (typeof xv === 'function' && typeof yv === 'function');
        });
    }
    return Object.is(x, y);
  });
}

/**
 * The one way a view binds to a machine: its props from the flow's `connect` (zag's), re-rendered only
 * when those props change. Views never read a snapshot themselves.
 */
export function useConnect<TMachine extends AnyStateMachine, TProps, TData = undefined>(
  actor: ActorRef<SnapshotFrom<TMachine>, EventFromLogic<TMachine>>,
  connect: Connect<TMachine, TProps, TData>,
  ...data: TData extends undefined ? [] : [TData]
): TProps {
  return useSelector(actor, (snapshot) => connect(snapshot, actor.send, data[0] as TData), sameProps);
}
