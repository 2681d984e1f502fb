/**
 * Actor factories per area: the API-backed implementations that views provide to machines.
 * Each actor takes its input and output types from its API function, once (`fromCall`); machines
 * declare the same types with `notProvided`, so the factory, the chart and the tests cannot drift.
 */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise, type NonReducibleUnknown, type PromiseActorLogic } from 'xstate';
import type { Api } from '../api/endpoints';
import { profileQuery } from '../api/queries';

/** An endpoint function of the API: one input (or none) and an abort signal. */
type Call = (input: never, signal?: AbortSignal) => Promise<unknown>;
type InputOf<F extends Call> = Parameters<F>[0];
type OutputOf<F extends Call> = Awaited<ReturnType<F>>;

/** The actor logic of an API call: output and input read from the function's own signature. */
export type CallLogic<K extends keyof Api> = PromiseActorLogic<OutputOf<Api[K]>, InputOf<Api[K]>>;

/** A `fromPromise` actor that runs one API call with its input and signal. */
export function fromCall<F extends Call>(call: F): PromiseActorLogic<OutputOf<F>, InputOf<F>> {
  return fromPromise<OutputOf<F>, InputOf<F>>(({ input, signal }) => call(input, signal) as Promise<OutputOf<F>>);
}

/**
 * The machine's own placeholder for an actor the view must provide, typed by what it answers and takes;
 * it fails loudly if it is not provided. The one style of placeholder in every chart.
 */
export function placeholder<TOutput, TInput = NonReducibleUnknown>(name: string): PromiseActorLogic<TOutput, TInput> {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} actor not provided`);
  });
}

/** A placeholder for an actor that is one API call: its types are the call's own. */
export function notProvided<K extends keyof Api>(name: string): CallLogic<K> {
  return placeholder<OutputOf<Api[K]>, InputOf<Api[K]>>(name);
}

export function createAuthActors(api: Api) {
  return {
    signIn: fromCall(api.signIn),
    signUp: fromCall(api.signUp),
    verifySignUp: fromCall(api.verifySignUp),
    resendSignUpCode: fromCall(api.resendSignUpCode),
    sendRecoveryCode: fromCall(api.sendRecoveryCode),
    verifyRecoveryCode: fromCall(api.verifyRecoveryCode),
    resetPassword: fromCall(api.resetPassword),
    verifyAuthLink: fromCall(api.verifyAuthLink),
    undoEmailChange: fromCall(api.undoEmailChange),
  };
}

/** Account actors read and write through React Query, which owns the profile (product.md#state-ownership). */
export function createAccountActors(api: Api, queryClient: QueryClient) {
  return {
    // Fills the cache the profile form reads; the machine keeps no copy.
    loadProfile: fromPromise<OutputOf<Api['getProfile']>>(() => queryClient.fetchQuery(profileQuery(api))),
    saveProfile: fromCall(api.updateProfile),
    changePassword: fromCall(api.changePassword),
    uploadPhoto: fromCall(api.uploadPhoto),
    // Issue 36: signed-in devices and the change of email.
    listDevices: fromCall(api.listDevices),
    signOutDevice: fromCall(api.signOutDevice),
    signOutOtherDevices: fromCall(api.signOutOtherDevices),
    startEmailChange: fromCall(api.startEmailChange),
    verifyEmailChange: fromCall(api.verifyEmailChange),
    resendEmailChangeCode: fromCall(api.resendEmailChangeCode),
  };
}

export type AuthActors = ReturnType<typeof createAuthActors>;
export type AccountActors = ReturnType<typeof createAccountActors>;
