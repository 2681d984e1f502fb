/** The photo part's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import type { PhotoEvent, PhotoMachine } from './photo.machine';

export function connectPhoto(state: SnapshotFrom<PhotoMachine>, send: (event: PhotoEvent) => void) {
  const uploading = state.matches('uploading');
  return {
    file: state.context.file,
    error: state.context.error,
    uploading,
    /** A chosen (or failed) file waits for 'Upload Photo' or 'Cancel'. */
    pending: uploading || state.matches({ ready: 'chosen' }) || state.matches({ ready: 'failed' }),
    choose: (file: File) => send({ type: 'photo.choose', file }),
    upload: () => send({ type: 'photo.upload' }),
    discard: () => send({ type: 'photo.discard' }),
  };
}
