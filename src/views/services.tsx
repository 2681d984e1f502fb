/**
 * What every view can reach: the request function (lazy pages build the API on it with `useApi()`),
 * the session actor, and (for tests and the inspector) overrides for the actors and inspection of any
 * flow a view starts.
 */
import { createContext, useContext } from 'react';
import type { ActorRefFrom, AnyActorLogic, AnyStateMachine, InspectionEvent, MachineImplementationsFrom, Observer } from 'xstate';
import type { Http } from '../api/http';
import type { SessionMachine } from '../machines/session/session.machine';

export interface Services {
  /** Pages reach the API through `useApi()`, which builds it on this. */
  http: Http;
  session: ActorRefFrom<SessionMachine>;
}

export interface FlowOverrides {
  /** Replaces named actors of any machine started with useFlow (tests use deferreds here). */
  actors?: Record<string, AnyActorLogic>;
  /** Replaces named actions a machine implements itself (a redirect, the browser's confirm) in tests. */
  actions?: MachineImplementationsFrom<AnyStateMachine>['actions'];
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

export const ServicesContext = createContext<Services | null>(null);
export const FlowOverridesContext = createContext<FlowOverrides>({});

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesContext.Provider>');
  return services;
}
