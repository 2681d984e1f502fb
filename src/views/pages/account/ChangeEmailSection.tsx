/** The email address on /account and its change (issue 36, product.md#email-change): the changeEmail chart's view. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type FormEvent } from 'react';
import { profileQuery, queryKeys } from '../../../api/queries';
import type { Profile } from '../../../api/schemas';
import { m } from '../../../i18n';
import { createAccountActors } from '../../../machines/actors';
import { connectChangeEmail } from '../../../machines/changeEmail/changeEmail.connect';
import { changeEmailMachine } from '../../../machines/changeEmail/changeEmail.machine';
import { connectSession } from '../../../machines/session';
import { button, card, fieldset, form, muted } from '../../../styles/ui.css';
import { notifyFor } from '../../parts/bindings';
import { CodeForm } from '../../parts/CodeForm';
import { ErrorBox } from '../../parts/ErrorBox';
import { formValues } from '../../parts/formValues';
import { TextField } from '../../parts/TextField';
import { useServices } from '../../services';
import { useApi } from '../../useApi';
import { useConnect, useFlow } from '../../useFlow';
import * as css from '../account.css';

export default function ChangeEmailSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useServices();
  const { updateUser } = useConnect(session, connectSession);
  const email = useQuery(profileQuery(api)).data?.email;
  const actor = useFlow(changeEmailMachine, {
    actors: createAccountActors(api, queryClient),
    actions: {
      notify: notifyFor('changeEmail'),
      emailChanged: (_, { email: changed }) => {
        queryClient.setQueryData<Profile>(queryKeys.profile, (old) => (old ? { ...old, email: changed } : old));
        updateUser({ email: changed });
      },
    },
  });
  const { step, sending, fieldErrors, serverMessage, code, onEdit, onSubmit: submit, onCancel, onCancelCode } = useConnect(actor, connectChangeEmail);

  // Focus follows the step (newcomer walk: it fell to the page): the form's first field when it opens, the
  // code field when the code is sent, and Change Email again when the change is done or canceled.
  const sectionRef = useRef<HTMLElement>(null);
  const shown = useRef(step);
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    const section = sectionRef.current;
    if (!section) return;
    const target = step === 'closed' ? section.querySelector<HTMLElement>('button') : section.querySelector<HTMLElement>('form input');
    target?.focus();
  }, [step]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(formValues(event.currentTarget, ['password', 'newEmail'] as const));
  }

  return (
    <section ref={sectionRef} className={card} aria-labelledby="email-title">
      <h2 id="email-title" className={css.cardTitle}>{m.email_address_title()}</h2>
      {email && <p className={css.emailLine}><strong>{email}</strong></p>}
      {step === 'closed' && <button type="button" className={button.secondary} onClick={onEdit}>{m.change_email()}</button>}
      {step === 'form' && (
        <form className={form} onSubmit={onSubmit} noValidate aria-label={m.change_email()}>
          <p className={muted}>{m.change_email_intro()}</p>
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={sending}>
            <TextField label={m.current_password()} name="password" type="password" autoComplete="current-password" error={fieldErrors.password} />
            <TextField label={m.new_email_address()} name="newEmail" type="email" autoComplete="email" error={fieldErrors.newEmail} />
            <div className={css.formActions}>
              <button type="submit" className={button.primary} aria-busy={sending}>{sending ? m.sending() : m.send_code()}</button>
              <button type="button" className={button.secondary} onClick={onCancel}>{m.cancel()}</button>
            </div>
          </fieldset>
        </form>
      )}
      {step === 'code' && <CodeForm {...code} onCancel={onCancelCode} />}
    </section>
  );
}
