/** Password recovery: /forgot-password → /verify?q=&email= → /reset?q=, one flow (spec §2). */
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { createAuthActors } from '../../machines/actors';
import { recoveryMachine, type RecoveryLocation } from '../../machines/recovery.machine';
import { routes } from '../../lib/route-paths';
import { button, card, fieldset, form, heading, linkRow, muted, narrowPage } from '../../styles/ui.css';
import { notifyAction } from '../parts/bindings';
import { CodeForm, codeStepProps } from '../parts/CodeForm';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useFlow } from '../useFlow';
import { useLocationEvents } from '../useUrlProjection';

function locationOf(path: string, search: string): RecoveryLocation {
  const params = new URLSearchParams(search);
  const step = path === routes.forgotPasswordReset ? 'reset' : path === routes.forgotPasswordVerify ? 'verify' : 'request';
  return {
    step,
    verifyToken: step === 'verify' ? params.get('q') : null,
    email: params.get('email'),
    resetToken: step === 'reset' ? params.get('q') : null,
  };
}

export default function RecoveryPage() {
  const { api } = useServices();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const location = locationOf(path, search);
  const actor = useFlow(recoveryMachine, {
    actors: createAuthActors(api),
    actions: {
      notify: notifyAction,
      showStep: (_: unknown, p: { path: string; replace?: boolean }) => navigate(p.path, { replace: p.replace ?? false }),
      goToLogin: () => navigate(routes.login, { replace: true }),
    },
    input: location,
  });
  useLocationEvents(actor.send, path, search, locationOf);
  const state = useSelector(actor, (s) => s);
  const { fieldErrors, serverMessage, email } = state.context;
  const cancel = () => actor.send({ type: 'flow.cancel' });

  let body;
  if (state.matches('linkIncomplete')) {
    body = (
      <>
        <h1 className={heading}>Reset your password</h1>
        <p role="alert">This link is incomplete or has expired. Request a new code to continue.</p>
        <button type="button" className={button.primary} onClick={cancel}>Request a new code</button>
      </>
    );
  } else if (state.matches('verify')) {
    body = (
      <>
        <h1 className={heading}>Enter your code</h1>
        <CodeForm {...codeStepProps(state, actor.send)} onCancel={cancel} />
      </>
    );
  } else if (state.matches('reset')) {
    const resetting = state.matches({ reset: 'resetting' });
    const onReset = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const values = formValues(event.currentTarget, ['password', 'confirmPassword'] as const);
      actor.send({ type: 'password.submit', ...values });
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
    const sending = state.matches({ request: 'sending' });
    const onRequest = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      actor.send({ type: 'email.submit', email: formValues(event.currentTarget, ['email'] as const).email });
    };
    body = (
      <>
        <h1 className={heading}>Forgot your password?</h1>
        <p className={muted}>Enter the email of your account and we will send you a code to reset your password.</p>
        <form className={form} onSubmit={onRequest} noValidate aria-label="Request a code">
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={sending}>
            <TextField label="Email" name="email" type="email" autoComplete="email" defaultValue={email ?? ''} error={fieldErrors.email} />
            <button type="submit" className={button.primary} aria-busy={sending}>{sending ? 'Sending...' : 'Send Code'}</button>
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
