/**
 * Profile card (product.md#account): load the profile, edit first, middle (optional) and last name,
 * 'Save Changes'. React Query owns the profile (product.md#state-ownership): the machine keeps no copy; `loadProfile`
 * fills the cache the form reads, and the view binds `profileSaved` to write a saved answer into
 * the cache and the session, so the header reflects it at once.
 */
import { assign, setup } from 'xstate';
import { profileUpdateRequestSchema, type Profile, type ProfileUpdateWithTin } from '../../api/schemas';
import { fieldErrorsOf, type FieldErrors } from '../../lib/validation';
import { notProvided, placeholder, type AccountActors } from '../actors';
import { m } from '../../i18n';
import { formStates, withErrorMessage, type Notify } from '../shared';

export interface ProfileContext {
  changes: ProfileUpdateWithTin | null;
  fieldErrors: FieldErrors<ProfileUpdateWithTin>;
  serverMessage: string | null;
  /** Bumped when a save succeeds, so the form shows the saved values. */
  revision: number;
}

/** The form's fields: the names and the TIN for invoices (issue 34; '' removes it). */
export type ProfileValues = Record<keyof ProfileUpdateWithTin, string>;

export type ProfileEvent = { type: 'form.submit'; values: ProfileValues } | { type: 'load.retry' };

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
  },
  actors: {
    loadProfile: placeholder<Profile>('loadProfile') satisfies AccountActors['loadProfile'],
    saveProfile: notProvided<'updateProfile'>('saveProfile'),
  },
  guards: {
    isFormValid: ({ event }) => event.type === 'form.submit' && profileUpdateRequestSchema.safeParse(event.values).success,
  },
  actions: {
    assignChanges: assign(({ event }) =>
      event.type === 'form.submit' ? { changes: profileUpdateRequestSchema.parse(event.values), fieldErrors: {}, serverMessage: null } : {},
    ),
    assignFieldErrors: assign(({ event }) =>
      event.type === 'form.submit' ? { fieldErrors: fieldErrorsOf(profileUpdateRequestSchema, event.values), serverMessage: null } : {},
    ),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    showSavedValues: assign(({ context }) => ({ changes: null, revision: context.revision + 1 })),
    notify: (_, _params: Notify) => {},
    profileSaved: (_, _params: { profile: Profile }) => {},
  },
}).createMachine({
  id: 'profile',
  description:
    'On /account the person sees their profile and changes first, middle (optional) and last name, and the TIN for invoices (optional), with Save Changes. A saved name shows in the header at once.',
  meta: {
    title: 'Profile',
    events: {
      'form.submit': 'The person presses Save Changes',
      'load.retry': 'The person presses Try again',
    },
  },
  context: { changes: null, fieldErrors: {}, serverMessage: null, revision: 0 },
  initial: 'loading',
  states: {
    loading: {
      description: 'Loading the profile',
      meta: { screen: '/account' },
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: 'form',
        onError: { target: 'loadFailed', actions: withErrorMessage('assignServerMessage') },
      },
    },
    loadFailed: {
      description: 'The profile did not load',
      on: { 'load.retry': 'loading' },
    },
    form: {
      ...formStates,
      description: 'The profile form',
      on: {
        'form.submit': [
          { guard: 'isFormValid', target: 'saving', actions: 'assignChanges' },
          { target: '.invalid', actions: 'assignFieldErrors' },
        ],
      },
    },
    saving: {
      description: 'Saving the names and the TIN',
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context }) => context.changes!,
        onDone: {
          target: 'form.editing',
          description: 'Profile saved',
          actions: [
            { type: 'profileSaved', params: ({ event }) => ({ profile: event.output }) },
            'showSavedValues',
            { type: 'notify', params: { kind: 'success', message: m.profile_updated_successfully } },
          ],
        },
        onError: { target: 'form.rejected', actions: withErrorMessage('assignServerMessage') },
      },
    },
  },
});

export type ProfileMachine = typeof profileMachine;
