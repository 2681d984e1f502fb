/** The devices card's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import type { DevicesEvent, DevicesMachine } from './devices.machine';

export function connectDevices(state: SnapshotFrom<DevicesMachine>, send: (event: DevicesEvent) => void) {
  const { devices, target, serverMessage } = state.context;
  const confirming = state.matches('confirmOne') ? ('one' as const) : state.matches('confirmOthers') ? ('others' as const) : null;
  return {
    loading: state.matches('loading'),
    failed: state.matches('failed'),
    devices,
    hasOthers: devices.some((d) => !d.current),
    listMessage: state.matches('failed') ? serverMessage : null,
    confirming,
    target,
    signingOut: state.matches({ confirmOne: 'signingOut' }) || state.matches({ confirmOthers: 'signingOut' }),
    dialogMessage: confirming ? serverMessage : null,
    onRetry: () => send({ type: 'list.retry' }),
    onSignOut: (id: string) => send({ type: 'device.signOut', id }),
    onSignOutOthers: () => send({ type: 'others.signOut' }),
    onConfirm: () => send({ type: 'confirm.accept' }),
    onCancel: () => send({ type: 'confirm.cancel' }),
  };
}
