/**
 * "Delete my account" on /account (issue 36, product.md#erasure): the deleteAccount flow. What happens
 * first; then the current password and the email typed again; once deleted the viewer is signed out and
 * taken to the landing page, with a toast (and a mail).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { profileQuery } from '../../../api/queries';
import { m } from '../../../i18n';
import { fromCall } from '../../../machines/actors';
import { connectDeleteAccount, deleteAccountMachine } from '../../../machines/deleteAccount';
import { connectSession } from '../../../machines/session';
import { button, card, fieldset, form } from '../../../styles/ui.css';
import { notifyFor } from '../../parts/bindings';
import { ErrorBox } from '../../parts/ErrorBox';
import { formValues } from '../../parts/formValues';
import { TextField } from '../../parts/TextField';
import { useServices } from '../../services';
import { useApi } from '../../useApi';
import { useConnect, useFlow } from '../../useFlow';
import * as css from '../account.css';
import { actions } from './accountData.css';

export default function DeleteAccountSection() {
  const api = useApi();
  const { session } = useServices();
  const { user, logout } = useConnect(session, connectSession);
  const email = useQuery(profileQuery(api)).data?.email ?? user?.email ?? '';
  if (!email) return null;
  return <DeleteAccountCard email={email} onDeleted={logout} />;
}

function DeleteAccountCard({ email, onDeleted }: { email: string; onDeleted: () => void }) {
  const api = useApi();
  const [, navigate] = useLocation();
  const [actors] = useState(() => ({ deleteAccount: fromCall(api.deleteAccount) }));
  const flow = useFlow(deleteAccountMachine, {
    actors,
    input: { email },
    actions: {
      notify: notifyFor('deleteAccount'),
      accountDeleted: () => {
        onDeleted();
        navigate('/');
      },
    },
  });
  const view = useConnect(flow, connectDeleteAccount);
  // Focus follows the step: into the form when it opens, back to its button when it is cancelled.
  const formRef = useRef<HTMLFormElement>(null);
  const beginRef = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (view.showForm) formRef.current?.querySelector('input')?.focus();
    else if (opened.current) beginRef.current?.focus();
    opened.current = view.showForm;
  }, [view.showForm]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    view.submit(formValues(event.currentTarget, ['password', 'confirmation'] as const));
  }

  return (
    <section className={card} aria-labelledby="delete-title">
      <h2 id="delete-title" className={css.cardTitle}>{m.delete_my_account()}</h2>
      <h3>{m.what_happens_when_you_delete()}</h3>
      <ul>
        <li>{m.delete_account_subscription()}</li>
        <li>{m.delete_account_erased()}</li>
        <li>{m.delete_account_kept()}</li>
      </ul>
      <p><strong>{m.delete_account_cannot_be_undone()}</strong></p>
      {!view.showForm && <button ref={beginRef} type="button" className={button.danger} onClick={view.begin}>{m.continue_to_delete()}</button>}
      {view.showForm && (
        <form ref={formRef} className={form} onSubmit={onSubmit} noValidate aria-label={m.delete_my_account()}>
          <ErrorBox message={view.serverMessage} />
          <fieldset className={fieldset} disabled={view.deleting}>
            <TextField label={m.current_password()} name="password" type="password" autoComplete="current-password" error={view.fieldErrors.password} focusOnLateError />
            <TextField
              label={m.to_confirm_type_your_email({ email: view.email })} name="confirmation" type="email" autoComplete="off" spellCheck={false}
              error={view.fieldErrors.confirmation}
            />
            <div className={actions}>
              <button type="submit" className={button.danger} aria-busy={view.deleting}>{view.deleting ? m.deleting_your_account() : m.delete_my_account_for_good()}</button>
              <button type="button" className={button.secondary} onClick={view.cancel}>{m.cancel()}</button>
            </div>
          </fieldset>
        </form>
      )}
    </section>
  );
}
