import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { photoMachine } from '../../src/machines/photo/photo.machine';
import { renderAccount } from '../support/account';
import { describeModel } from '../support/model';

const card = () => within(screen.getByRole('region', { name: 'Profile' }));
const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });

describeModel('photo', {
  machine: photoMachine,
  events: {
    'photo.choose': [{ type: 'photo.choose', file: png }, { type: 'photo.choose', file: text }],
    'photo.upload': [{ type: 'photo.upload' }],
    'photo.discard': [{ type: 'photo.discard' }],
  },
  invocations: {
    uploadPhoto: { done: [{ photo: '/uploads/0b0e7f4e-4d4f-4b0e-9d67-3c2f4b1a2c3d.png' }], error: [new Error('Photo must be a JPEG, PNG or WebP image.')] },
  },
  render: async (tools) => {
    const run = renderAccount(tools);
    await screen.findByRole('button', { name: 'Change Photo' }); // the photo part shows once the profile is loaded
    return run;
  },
  executors: {
    'photo.choose': async (run, event) => run.user.upload(card().getByLabelText('Choose a photo'), event.file),
    'photo.upload': async (run) => run.user.click(card().getByRole('button', { name: 'Upload Photo' })),
    'photo.discard': async (run) => run.user.click(card().getByRole('button', { name: 'Cancel' })),
  },
  states: {
    'ready.idle': (run) => {
      expect(card().getByRole('button', { name: 'Change Photo' })).toBeEnabled();
      expect(card().queryByRole('img', { name: 'Preview of your new photo' })).not.toBeInTheDocument();
      const photo = run.session.getSnapshot().context.user?.photo;
      if (photo) expect(card().getByRole('img', { name: 'Your profile photo' })).toHaveAttribute('src', photo);
    },
    'ready.refused': () => {
      expect(card().getByRole('alert')).toHaveTextContent('Photo must be a JPEG, PNG or WebP image.');
    },
    'ready.chosen': () => {
      expect(card().getByRole('img', { name: 'Preview of your new photo' })).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Upload Photo' })).toBeEnabled();
    },
    'ready.failed': () => {
      expect(card().getByRole('alert')).toHaveTextContent('Photo must be a JPEG, PNG or WebP image.');
      expect(card().getByRole('button', { name: 'Upload Photo' })).toBeEnabled();
    },
    uploading: () => {
      expect(card().getByRole('button', { name: 'Uploading...' })).toBeDisabled();
      expect(card().getByLabelText('Choose a photo')).toBeDisabled();
    },
  },
});
