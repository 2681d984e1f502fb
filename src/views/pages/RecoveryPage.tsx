/** Password recovery: /forgot-password → /verify?q=&email= → /reset?q=, one flow (product.md#recovery). */
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { createAuthActors } from '../../machines/actors';
import { parse } from '../../machines/recovery/recovery.address';
import { connectRecovery } from '../../machines/recovery/recovery.connect';
import { recoveryMachine } from '../../machines/recovery/recovery.machine';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button, card, fieldset, form, heading, linkRow, muted, narrowPage } from '../../styles/ui.css';
import { goToAction, notifyFor } from '../parts/bindings';
import { CodeForm } from '../parts/CodeForm';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useApi } from '../useApi';
import { useCommonPasswords } from '../useCommonPasswords';
import { useConnect, useFlow } from '../useFlow';
import { useLocationEvents } from '../useUrlProjection';

export default function RecoveryPage() {
  const api = useApi();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const actor = useFlow(recoveryMachine, {
    actors: createAuthActors(api),
    actions: { notify: notifyFor('recovery'), goTo: goToAction(navigate) },
    input: parse(path, search),
  });
  useLocationEvents(actor, path, search, parse);
  const { step, onCancel: cancel, request, code, reset } = useConnect(actor, connectRecovery);
  useCommonPasswords(step === 'reset');

  let body;
  if (step === 'linkIncomplete') {
    body = (
      <>
        <h1 className={heading}>{m.reset_your_password()}</h1>
        <p role="alert">{m.this_link_is_incomplete_or_has()}</p>
        <button type="button" className={button.primary} onClick={cancel}>{m.request_a_new_otp()}</button>
      </>
    );
  } else if (step === 'verify') {
    body = (
      <>
        <h1 className={heading}>{m.enter_your_otp()}</h1>
        <CodeForm {...code} onCancel={cancel} />
      </>
    );
  } else if (step === 'reset') {
    const { resetting, fieldErrors, serverMessage } = reset;
    const onReset = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      reset.onSubmit(formValues(event.currentTarget, ['password', 'confirmPassword'] as const));
    };
    body = (
      <>
        <h1 className={heading}>{m.set_a_new_password()}</h1>
        <form className={form} onSubmit={onReset} noValidate aria-label={m.set_a_new_password()}>
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={resetting}>
            <TextField label={m.new_password()} name="password" type="password" autoComplete="new-password" error={fieldErrors.password} />
            <TextField label={m.confirm_password()} name="confirmPassword" type="password" autoComplete="new-password" error={fieldErrors.confirmPassword} />
            <button type="submit" className={button.primary} aria-busy={resetting}>{resetting ? m.saving() : m.reset_password()}</button>
            <button type="button" className={button.secondary} onClick={cancel}>{m.cancel()}</button>
          </fieldset>
        </form>
      </>
    );
  } else {
    const { sending, fieldErrors, serverMessage, email } = request;
    const onRequest = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      request.onSubmit(formValues(event.currentTarget, ['email'] as const).email);
    };
    body = (
      <>
        <h1 className={heading}>{m.forgot_your_password()}</h1>
        <p className={muted}>{m.enter_the_email_of_your_account_and()}</p>
        <form className={form} onSubmit={onRequest} noValidate aria-label={m.request_an_otp()}>
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={sending}>
            <TextField label={m.email()} name="email" type="email" autoComplete="email" defaultValue={email} error={fieldErrors.email} />
            <button type="submit" className={button.primary} aria-busy={sending}>{sending ? m.sending() : m.send_otp()}</button>
          </fieldset>
        </form>
        <p className={linkRow}><Link href={routes.login}>{m.back_to_log_in()}</Link></p>
      </>
    );
  }
  return (
    <div className={narrowPage}>
      <div className={card}>{body}</div>
    </div>
  );
}
