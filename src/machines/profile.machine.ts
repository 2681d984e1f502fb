/**
 * Profile card (spec §2 /account): load the profile, edit first, middle (optional) and last name,
 * 'Save Changes'. The header reflects a saved name at once (the view binds `profileSaved`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { profileUpdateRequestSchema, type Profile, type ProfileUpdateRequest } from '../api/schemas';
import { fieldErrorsOf, type FieldErrors } from '../lib/validation';
import { errorMessageOf, formStates, outputOf, type Notify } from './shared';

export interface ProfileContext {
  profile: Profile | null;
  changes: ProfileUpdateRequest | null;
  fieldErrors: FieldErrors<ProfileUpdateRequest>;
  serverMessage: string | null;
  /** Bumped when the saved profile changes, so the form shows the saved values. */
  revision: number;
}

export type ProfileValues = Record<keyof ProfileUpdateRequest, string>;

export type ProfileEvent = { type: 'form.submit'; values: ProfileValues } | { type: 'load.retry' };

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
  },
  actors: {
    loadProfile: fromPromise<Profile>(async () => {
      throw new Error('loadProfile actor not provided');
    }),
    saveProfile: fromPromise<Profile, ProfileUpdateRequest>(async () => {
      throw new Error('saveProfile actor not provided');
    }),
  },
  guards: {
    isFormValid: ({ event }) => event.type === 'form.submit' && profileUpdateRequestSchema.safeParse(event.values).success,
  },
  actions: {
    assignProfile: assign(({ context, event }) => ({ profile: outputOf<Profile>(event), revision: context.revision + 1 })),
    assignChanges: assign(({ event }) =>
      event.type === 'form.submit' ? { changes: profileUpdateRequestSchema.parse(event.values), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignFieldErrors: assign(({ event }) =>
      event.type === 'form.submit' ? { fieldErrors: fieldErrorsOf(profileUpdateRequestSchema, event.values), serverMessage: null } : {},
    ),
    assignServerMessage: assign(({ event }) => ({ serverMessage: errorMessageOf(event) })),
    notify: (_, _params: Notify) => {},
    profileSaved: (_, _params: { profile: Profile }) => {},
  },
}).createMachine({
  id: 'profile',
  context: { profile: null, changes: null, fieldErrors: {}, serverMessage: null, revision: 0 },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: { target: 'form', actions: 'assignProfile' },
        onError: { target: 'loadFailed', actions: 'assignServerMessage' },
      },
    },
    loadFailed: {
      on: { 'load.retry': 'loading' },
    },
    form: {
      ...formStates,
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'saving', actions: 'assignChanges' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context }) => context.changes!,
        onDone: {
          target: 'form.editing',
          actions: [
            'assignProfile',
            { type: 'profileSaved', params: ({ event }) => ({ profile: outputOf<Profile>(event) }) },
            { type: 'notify', params: { kind: 'success', message: 'Profile updated successfully!' } },
          ],
        },
        onError: { target: 'form.rejected', actions: 'assignServerMessage' },
      },
    },
  },
});

export type ProfileMachine = typeof profileMachine;
