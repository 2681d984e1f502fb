/** What the account page's "Delete my account" shows (issue 36); pure. */
import type { SnapshotFrom } from 'xstate';
import type { DeleteAccountEvent, DeleteAccountMachine, DeleteAccountValues } from './deleteAccount.machine';

export function connectDeleteAccount(snapshot: SnapshotFrom<DeleteAccountMachine>, send: (event: DeleteAccountEvent) => void) {
  const { context } = snapshot;
  return {
    showForm: snapshot.matches('form') || snapshot.matches('deleting'),
    deleting: snapshot.matches('deleting'),
    email: context.email,
    fieldErrors: { password: context.fieldErrors.password?.(), confirmation: context.fieldErrors.confirmation?.() },
    serverMessage: snapshot.matches({ form: 'rejected' }) ? context.serverMessage : null,
    begin: () => send({ type: 'delete.begin' }),
    cancel: () => send({ type: 'delete.cancel' }),
    submit: (values: DeleteAccountValues) => send({ type: 'form.submit', values }),
  };
}
