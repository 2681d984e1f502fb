/**
 * Signed-in devices on /account (issue 36, product.md#devices): the account's live sessions, this device
 * marked; signing out one other device or all others, each after a confirmation. A device signed out
 * here gets a 401 on its next call and its app goes to sign-in (the session machine's `session.unauthorized`).
 */
import { assign, setup } from 'xstate';
import type { SignedInDevice } from '../../api/schemas';
import { m } from '../../i18n';
import { notProvided } from '../actors';
import { withErrorMessage, type Notify } from '../shared';

export interface DevicesContext {
  devices: SignedInDevice[];
  /** The device the confirmation asks about (signing out one). */
  target: SignedInDevice | null;
  serverMessage: string | null;
}

export type DevicesEvent =
  | { type: 'list.retry' }
  | { type: 'device.signOut'; id: string }
  | { type: 'others.signOut' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.cancel' };

export const devicesMachine = setup({
  types: {
    context: {} as DevicesContext,
    events: {} as DevicesEvent,
  },
  actors: {
    listDevices: notProvided<'listDevices'>('listDevices'),
    signOutDevice: notProvided<'signOutDevice'>('signOutDevice'),
    signOutOtherDevices: notProvided<'signOutOtherDevices'>('signOutOtherDevices'),
  },
  guards: {
    isOtherDevice: ({ context, event }) => event.type === 'device.signOut' && context.devices.some((d) => d.id === event.id && !d.current),
    hasOtherDevices: ({ context }) => context.devices.some((d) => !d.current),
  },
  actions: {
    assignDevices: assign((_, params: { devices: SignedInDevice[] }) => ({ devices: params.devices, serverMessage: null })),
    assignTarget: assign(({ context, event }) =>
      event.type === 'device.signOut' ? { target: context.devices.find((d) => d.id === event.id) ?? null, serverMessage: null } : {},
    ),
    forgetTarget: assign({ target: null, serverMessage: null }),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    notify: (_, _params: Notify) => {},
  },
}).createMachine({
  id: 'devices',
  description:
    'On /account the viewer sees every device signed in to the account (this one marked) and signs out one of the others, or all others, after confirming. A failed load shows why with Try again.',
  meta: {
    title: 'Signed-in devices',
    events: {
      'list.retry': 'The viewer presses Try again after a failed load',
      'device.signOut': 'The viewer presses Sign Out beside another device',
      'others.signOut': 'The viewer presses Sign Out All Other Devices',
      'confirm.accept': 'The viewer confirms in the dialog',
      'confirm.cancel': 'The viewer keeps the devices signed in (Keep Signed In, Escape, ×)',
    },
  },
  context: { devices: [], target: null, serverMessage: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the signed-in devices',
      meta: { screen: '/account' },
      invoke: {
        id: 'listDevices',
        src: 'listDevices',
        onDone: { target: 'list', actions: { type: 'assignDevices', params: ({ event }) => ({ devices: event.output.sessions }) } },
        onError: { target: 'failed', actions: withErrorMessage('assignServerMessage') },
      },
    },
    failed: {
      description: 'Showing why the list could not be read, with Try again',
      on: { 'list.retry': { target: 'loading' } },
    },
    list: {
      description: 'The devices, this one first and marked',
      on: {
        'device.signOut': { guard: 'isOtherDevice', target: 'confirmOne', actions: 'assignTarget' },
        'others.signOut': { guard: 'hasOtherDevices', target: 'confirmOthers' },
      },
    },
    confirmOne: {
      description: 'Asking before signing out one device',
      initial: 'asking',
      exit: 'forgetTarget',
      states: {
        asking: { on: { 'confirm.accept': { target: 'signingOut' }, 'confirm.cancel': { target: '#devices.list' } }, description: 'The dialog asks' },
        rejected: {
          on: { 'confirm.accept': { target: 'signingOut' }, 'confirm.cancel': { target: '#devices.list' } },
          description: 'The dialog shows why it failed',
        },
        signingOut: {
          description: 'Signing the device out',
          invoke: {
            id: 'signOutDevice',
            src: 'signOutDevice',
            input: ({ context }) => ({ id: context.target!.id }),
            onDone: { target: '#devices.loading', actions: { type: 'notify', params: { kind: 'success', message: m.signed_out_of_that_device } } },
            onError: { target: 'rejected', actions: withErrorMessage('assignServerMessage') },
          },
        },
      },
    },
    confirmOthers: {
      description: 'Asking before signing out every other device',
      initial: 'asking',
      exit: 'forgetTarget',
      states: {
        asking: { on: { 'confirm.accept': { target: 'signingOut' }, 'confirm.cancel': { target: '#devices.list' } }, description: 'The dialog asks' },
        rejected: {
          on: { 'confirm.accept': { target: 'signingOut' }, 'confirm.cancel': { target: '#devices.list' } },
          description: 'The dialog shows why it failed',
        },
        signingOut: {
          description: 'Signing every other device out',
          invoke: {
            id: 'signOutOtherDevices',
            src: 'signOutOtherDevices',
            onDone: { target: '#devices.loading', actions: { type: 'notify', params: { kind: 'success', message: m.signed_out_of_every_other_device } } },
            onError: { target: 'rejected', actions: withErrorMessage('assignServerMessage') },
          },
        },
      },
    },
  },
});

export type DevicesMachine = typeof devicesMachine;
