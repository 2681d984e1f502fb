/** Actor factories per area: the API-backed implementations that views provide to machines. */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { Api, SignInResult } from '../api/endpoints';
import { profileQuery } from '../api/queries';
import type { AuthResult, PasswordChangeRequest, Profile, ProfileUpdateRequest, SignInRequest, SignUpRequest } from '../api/schemas';

export function createAuthActors(api: Api) {
  return {
    signIn: fromPromise<SignInResult, SignInRequest>(({ input, signal }) => api.signIn(input, signal)),
    signUp: fromPromise<{ verificationToken: string }, SignUpRequest>(({ input, signal }) => api.signUp(input, signal)),
    verifySignUp: fromPromise<AuthResult, { verificationToken: string; otpCode: string }>(({ input, signal }) =>
      api.verifySignUp(input, signal)),
    resendSignUpCode: fromPromise<{ verificationToken: string }, { verificationToken: string }>(({ input, signal }) =>
      api.resendSignUpCode(input, signal)),
    sendRecoveryCode: fromPromise<{ verifyToken: string }, { email: string }>(({ input, signal }) => api.sendRecoveryCode(input, signal)),
    verifyRecoveryCode: fromPromise<{ resetToken: string }, { verifyToken: string; otpCode: string }>(({ input, signal }) =>
      api.verifyRecoveryCode(input, signal)),
    resetPassword: fromPromise<unknown, { resetToken: string; password: string; confirmPassword: string }>(({ input, signal }) =>
      api.resetPassword(input, signal)),
    verifyAuthLink: fromPromise<AuthResult, { token: string }>(({ input, signal }) => api.verifyAuthLink(input, signal)),
  };
}

/** Account actors read and write through React Query, which owns the profile (design). */
export function createAccountActors(api: Api, queryClient: QueryClient) {
  return {
    loadProfile: fromPromise<Profile>(() => queryClient.fetchQuery(profileQuery(api))),
    // After a change the view writes the answer into the cache (and the session), see AccountPage.
    saveProfile: fromPromise<Profile, ProfileUpdateRequest>(({ input, signal }) => api.updateProfile(input, signal)),
    changePassword: fromPromise<unknown, PasswordChangeRequest>(({ input, signal }) => api.changePassword(input, signal)),
    uploadPhoto: fromPromise<{ photo: string }, File>(({ input, signal }) => api.uploadPhoto(input, signal)),
  };
}
