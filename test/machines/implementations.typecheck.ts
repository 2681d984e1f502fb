/**
 * Type-level checks, run by `npm run typecheck` (tsc): the link from a machine to its implementations
 * is typed, so a renamed or missing actor or action, or a done output of the wrong shape, does not compile.
 */
import { fromPromise } from 'xstate';
import type { Api } from '../../src/api/endpoints';
import { createAuthActors } from '../../src/machines/actors';
import { recoveryMachine } from '../../src/machines/recovery/recovery.machine';
import { signInMachine } from '../../src/machines/signIn/signIn.machine';
import type { FlowOptions } from '../../src/views/useFlow';

declare const api: Api;
const { signIn, ...withoutSignIn } = createAuthActors(api);

export const complete: FlowOptions<typeof signInMachine> = { actors: { signIn } };

// @ts-expect-error a renamed actor: the machine invokes 'signIn', the factory offers 'logIn'
export const renamedActor: FlowOptions<typeof signInMachine> = { actors: { ...withoutSignIn, logIn: signIn } };

// @ts-expect-error a missing actor
export const missingActor: FlowOptions<typeof signInMachine> = { actors: {} };

export const wrongOutput: FlowOptions<typeof recoveryMachine> = {
  actors: {
    ...createAuthActors(api),
    // @ts-expect-error an actor whose output is not the API's (no verifyToken)
    sendRecoveryCode: fromPromise(async () => ({ token: 'x' })),
  },
};

export const renamedAction: FlowOptions<typeof signInMachine> = {
  actors: { signIn },
  // @ts-expect-error an action the chart does not name
  actions: { goToDestination: () => {} },
};

export const wrongParams: FlowOptions<typeof recoveryMachine> = {
  actors: createAuthActors(api),
  // @ts-expect-error action params are typed from the chart: goTo gets { path, replace? }
  actions: { goTo: (_: unknown, params: { url: URL }) => void params },
};
