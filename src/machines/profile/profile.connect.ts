/** The profile card's view props (zag's connect); the profile itself comes from the query cache. */
import type { SnapshotFrom } from 'xstate';
import type { ProfileEvent, ProfileMachine, ProfileValues } from './profile.machine';

export function connectProfile(state: SnapshotFrom<ProfileMachine>, send: (event: ProfileEvent) => void) {
  const saving = state.matches('saving');
  return {
    loading: state.matches('loading'),
    loadFailed: state.matches('loadFailed'),
    showForm: saving || state.matches('form'),
    saving,
    fieldErrors: state.context.fieldErrors,
    serverMessage: state.context.serverMessage,
    /** Changes after a save, so the form shows the saved values. */
    revision: state.context.revision,
    onSubmit: (values: ProfileValues) => send({ type: 'form.submit', values }),
    onRetry: () => send({ type: 'load.retry' }),
  };
}
