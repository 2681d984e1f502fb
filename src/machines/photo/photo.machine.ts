/**
 * Photo change (product.md#account): choose an image, see it previewed, upload it. Checked here for
 * type and size before upload; the server checks again by magic bytes.
 */
import { assign, setup } from 'xstate';
import { notProvided } from '../actors';
import { m } from '../../i18n';
import { withErrorMessage, type Notify } from '../shared';

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** Why a file is refused, read in the language in use when it is chosen (call them). */
export const PHOTO_ERRORS = {
  type: m.photo_must_be_a_jpeg_png_or_webp,
  size: m.photo_must_be_5_mb_or_smaller,
} as const;

export interface PhotoContext {
  /** The chosen file; the view shows its preview (an object URL is the view's resource, not state). */
  file: File | null;
  error: string | null;
}

export type PhotoEvent =
  | { type: 'photo.choose'; file: File }
  | { type: 'photo.upload' }
  | { type: 'photo.discard' };

export function photoProblem(file: File): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return PHOTO_ERRORS.type();
  if (file.size > MAX_PHOTO_BYTES) return PHOTO_ERRORS.size();
  return null;
}

export const photoMachine = setup({
  types: {
    context: {} as PhotoContext,
    events: {} as PhotoEvent,
  },
  actors: {
    uploadPhoto: notProvided<'uploadPhoto'>('uploadPhoto'),
  },
  guards: {
    isAcceptablePhoto: ({ event }) => event.type === 'photo.choose' && photoProblem(event.file) === null,
  },
  actions: {
    assignFile: assign(({ event }) => (event.type === 'photo.choose' ? { file: event.file, error: null } : {})),
    assignFileProblem: assign(({ event }) => (event.type === 'photo.choose' ? { error: photoProblem(event.file) } : {})),
    assignUploadError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearFile: assign({ file: null, error: null }),
    notify: (_, _params: Notify) => {},
    photoSaved: (_, _params: { photo: string }) => {},
  },
}).createMachine({
  id: 'photo',
  description:
    'On /account the person chooses an image (JPEG, PNG or WebP up to 5 MB), sees it previewed, and uploads it. A wrong file is refused before upload; a failed upload can be retried or discarded.',
  meta: {
    title: 'Profile photo',
    events: {
      'photo.choose': 'The person chooses a file',
      'photo.upload': 'The person presses Upload',
      'photo.discard': 'The person discards the chosen file',
    },
  },
  context: { file: null, error: null },
  initial: 'ready',
  states: {
    // Choosing is possible in every state but the upload itself, whose file input is disabled.
    ready: {
      description: 'Ready for a photo',
      meta: { screen: '/account' },
      initial: 'idle',
      on: {
        'photo.choose': [
          { guard: 'isAcceptablePhoto', target: '.chosen', actions: 'assignFile' },
          { target: '.refused', actions: ['clearFile', 'assignFileProblem'] },
        ],
      },
      states: {
        idle: { description: 'No file chosen' },
        // Left by choosing another file.
        refused: { description: 'File refused (type or size)' },
        chosen: {
          description: 'Previewing the chosen photo',
          on: {
            'photo.upload': '#photo.uploading',
            'photo.discard': { target: 'idle', actions: 'clearFile' },
          },
        },
        failed: {
          description: 'Upload failed',
          on: {
            'photo.upload': '#photo.uploading',
            'photo.discard': { target: 'idle', actions: 'clearFile' },
          },
        },
      },
    },
    uploading: {
      description: 'Uploading',
      invoke: {
        id: 'uploadPhoto',
        src: 'uploadPhoto',
        input: ({ context }) => context.file!,
        onDone: {
          target: 'ready.idle',
          actions: [
            { type: 'photoSaved', params: ({ event }) => ({ photo: event.output.photo }) },
            'clearFile',
            { type: 'notify', params: { kind: 'success', message: m.photo_uploaded_successfully } },
          ],
        },
        onError: { target: 'ready.failed', actions: withErrorMessage('assignUploadError') },
      },
    },
  },
});

export type PhotoMachine = typeof photoMachine;
