import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SignedInDevice } from '../../src/api/schemas';
import { devicesMachine } from '../../src/machines/devices/devices.machine';
import { renderAccount } from '../support/account';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Signed-in Devices' }));
const dialog = async () => within(await screen.findByRole('alertdialog'));

const here: SignedInDevice = {
  id: 'here', current: true, browser: 'Chrome 131', os: 'Windows 10', device: null, deviceType: 'desktop', place: null,
  signedInAt: '2026-11-20T02:00:00.000Z', lastUsedAt: '2026-11-27T02:00:00.000Z',
};
const phone: SignedInDevice = {
  id: 'phone', current: false, browser: 'Mobile Safari 17', os: 'iOS 17.4', device: 'Apple iPhone', deviceType: 'mobile', place: 'PH',
  signedInAt: '2026-11-21T03:00:00.000Z', lastUsedAt: '2026-11-26T04:30:00.000Z',
};
const REFUSED = 'This device is already signed out.';

describeModel('devices', {
  machine: devicesMachine,
  events: {
    'list.retry': [{ type: 'list.retry' }],
    'device.signOut': [{ type: 'device.signOut', id: 'phone' }],
    'others.signOut': [{ type: 'others.signOut' }],
    'confirm.accept': [{ type: 'confirm.accept' }],
    'confirm.cancel': [{ type: 'confirm.cancel' }],
  },
  invocations: {
    listDevices: { done: [{ sessions: [here, phone] }], error: [new Error('Network error')] },
    signOutDevice: { done: [{ data: null, message: 'Signed out of that device' }], error: [new Error(REFUSED)] },
    signOutOtherDevices: { done: [{ signedOut: 1 }], error: [new Error(REFUSED)] },
  },
  render: renderAccount,
  executors: {
    'list.retry': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Try again' }));
    },
    'device.signOut': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Sign out Apple iPhone, Mobile Safari 17 on iOS 17.4' }));
    },
    'others.signOut': async (run) => {
      await run.user.click(card().getByRole('button', { name: 'Sign Out All Other Devices' }));
    },
    'confirm.accept': async (run) => {
      const buttons = (await dialog()).getAllByRole('button').filter((b) => b.textContent !== '×');
      await run.user.click(buttons.at(-1)!);
    },
    'confirm.cancel': async (run) => {
      await run.user.click((await dialog()).getByRole('button', { name: 'Keep Signed In' }));
    },
  },
  states: {
    loading: (_, snapshot) => {
      expect(screen.getByRole('region', { name: 'Signed-in Devices' })).toHaveAttribute('aria-busy', 'true');
      // The first read says so; a read again after a sign-out keeps the list it had meanwhile, the dialog gone.
      if (snapshot.context.devices.length === 0) expect(card().getByRole('status')).toHaveTextContent('Loading devices...');
      else expect(card().getAllByRole('listitem')).toHaveLength(2);
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    },
    failed: () => {
      expect(card().getByRole('alert')).toHaveTextContent('Network error');
      expect(card().getByRole('button', { name: 'Try again' })).toBeEnabled();
    },
    list: () => {
      const rows = card().getAllByRole('listitem');
      expect(rows).toHaveLength(2);
      // This device first and marked, with no Sign Out of its own; the other with its place and times.
      expect(rows[0]).toHaveTextContent('Computer');
      expect(rows[0]).toHaveTextContent('This device');
      expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
      expect(rows[1]).toHaveTextContent('Apple iPhone');
      expect(rows[1]).toHaveTextContent('Mobile Safari 17 on iOS 17.4');
      expect(rows[1]).toHaveTextContent('Approximate place: Philippines');
      expect(rows[1]).toHaveTextContent('Signed in 11/21/2026');
      expect(rows[1]).toHaveTextContent('Last used 11/26/2026');
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    },
    'confirmOne.asking': async () => {
      const d = await dialog();
      expect(d.getByRole('heading', { name: 'Sign out Apple iPhone?' })).toBeInTheDocument();
      expect(d.getByText(/Whoever uses it will have to log in again/)).toBeInTheDocument();
      expect(d.queryByRole('alert')).not.toBeInTheDocument();
    },
    'confirmOne.rejected': async () => {
      expect((await dialog()).getByRole('alert')).toHaveTextContent(REFUSED);
    },
    'confirmOne.signingOut': async () => {
      expect((await dialog()).getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    },
    'confirmOthers.asking': async () => {
      const d = await dialog();
      expect(d.getByRole('heading', { name: 'Sign out every other device?' })).toBeInTheDocument();
      expect(d.queryByRole('alert')).not.toBeInTheDocument();
    },
    'confirmOthers.rejected': async () => {
      expect((await dialog()).getByRole('alert')).toHaveTextContent(REFUSED);
    },
    'confirmOthers.signingOut': async () => {
      expect((await dialog()).getByRole('button', { name: 'Signing out...' })).toBeDisabled();
    },
  },
});
