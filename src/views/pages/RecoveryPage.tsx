/** Password recovery: /forgot-password → /verify?q=&email= → /reset?q=, one flow (product.md#recovery). */
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { createAuthActors } from '../../machines/actors';
import { parse } from '../../machines/recovery/recovery.address';
import { connectRecovery } from '../../machines/recovery/recovery.connect';
import { recoveryMachine } from '../../machines/recovery/recovery.machine';
import { routes } from '../../lib/route-paths';
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
        <h1 className={heading}>Reset your password</h1>
        <p role="alert">This link is incomplete or has expired. Request a new OTP to continue.</p>
        <button type="button" className={button.primary} onClick={cancel}>Request a new OTP</button>
      </>
    );
  } else if (step === 'verify') {
    body = (
      <>
        <h1 className={heading}>Enter your OTP</h1>
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
        <h1 className={heading}>Set a new password</h1>
        <form className={form} onSubmit={onReset} noValidate aria-label="Set a new password">
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={resetting}>
            <TextField label="New Password" name="password" type="password" autoComplete="new-password" error={fieldErrors.password} />
            <TextField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" error={fieldErrors.confirmPassword} />
            <button type="submit" className={button.primary} aria-busy={resetting}>{resetting ? 'Saving...' : 'Reset Password'}</button>
            <button type="button" className={button.secondary} onClick={cancel}>Cancel</button>
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
        <h1 className={heading}>Forgot your password?</h1>
        <p className={muted}>Enter the email of your account and we will send you an OTP to reset your password.</p>
        <form className={form} onSubmit={onRequest} noValidate aria-label="Request an OTP">
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={sending}>
            <TextField label="Email" name="email" type="email" autoComplete="email" defaultValue={email} error={fieldErrors.email} />
            <button type="submit" className={button.primary} aria-busy={sending}>{sending ? 'Sending...' : 'Send OTP'}</button>
          </fieldset>
        </form>
        <p className={linkRow}><Link href={routes.login}>Back to Log In</Link></p>
      </>
    );
  }
  return (
    <div className={narrowPage}>
      <div className={card}>{body}</div>
    </div>
  );
}
