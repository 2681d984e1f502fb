/** Actor factories per area: the API-backed implementations that views provide to machines. */
import { fromPromise } from 'xstate';
import type { Api, SignInResult } from '../api/endpoints';
import type { SignInRequest } from '../api/schemas';

export function createAuthActors(api: Api) {
  return {
    signIn: fromPromise<SignInResult, SignInRequest>(({ input, signal }) => api.signIn(input, signal)),
  };
}
