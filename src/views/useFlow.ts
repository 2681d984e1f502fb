/** Starts a flow's machine for a view, with the view's actors and actions bound and any overrides. */
import { useActorRef } from '@xstate/react';
import { useContext, useState } from 'react';
import type { AnyStateMachine, InputFrom } from 'xstate';
import { FlowOverridesContext } from './services';

interface FlowOptions<TMachine extends AnyStateMachine> {
  actors: Record<string, unknown>;
  actions?: Record<string, unknown>;
  input?: InputFrom<TMachine>;
}

export function useFlow<TMachine extends AnyStateMachine>(machine: TMachine, options: FlowOptions<TMachine>) {
  const overrides = useContext(FlowOverridesContext);
  // The machine is bound once per mount: useActorRef ignores later machines anyway.
  const [bound] = useState(() =>
    machine.provide({
      actors: { ...options.actors, ...overrides.actors },
      actions: options.actions ?? {},
    } as never) as TMachine,
  );
  return useActorRef(bound, { input: options.input, inspect: overrides.inspect } as never);
}
