/**
 * Every machine drawn in docs/statecharts: the app's flows (src/machines) and the server's models (a
 * pure statechart of what billing must do, replayed against the server by the interleavings test).
 */
import { lifecycleMachine } from '../server/billing/lifecycle.machine';
import { machines as appMachines } from '../src/machines';

export const machines = { ...appMachines, moneyLifecycle: lifecycleMachine } as const;
