import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { createAuthActors } from '../../machines/actors';
import { connectSession } from '../../machines/session';
import { connectSignIn, signInMachine } from '../../machines/signIn';
import { routes, safeRedirectPath } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button, card, fieldset, form, heading, linkRow, narrowPage } from '../../styles/ui.css';
import { goToAction, startSessionAction } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';

export default function LoginPage() {
  const { session } = useServices();
  const api = useApi();
  const [, navigate] = useLocation();
  const search = useSearch();
  // The session reads the welcome-back flag as it restores (product.md#sign-in, product.md#session-state).
  const { welcomeBack } = useConnect(session, connectSession);

  const actor = useFlow(signInMachine, {
    actors: createAuthActors(api),
    actions: {
      startSession: startSessionAction(session),
      goTo: goToAction(navigate),
    },
    input: { redirectTo: safeRedirectPath(new URLSearchParams(search).get('from')) },
  });
  const { submitting, fieldErrors, serverMessage, onSubmit: submit } = useConnect(actor, connectSignIn);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(formValues(event.currentTarget, ['email', 'password'] as const));
  }

  return (
    <div className={narrowPage}>
      <div className={card}>
        <h1 className={heading}>{welcomeBack ? m.welcome_back() : m.log_in()}</h1>
        <form className={form} onSubmit={onSubmit} noValidate aria-label={m.sign_in_2()}>
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={submitting}>
            <TextField label={m.email()} name="email" type="email" autoComplete="email" error={fieldErrors.email} />
            <TextField label={m.password()} name="password" type="password" autoComplete="current-password" error={fieldErrors.password} />
            <button type="submit" className={button.primary} aria-busy={submitting}>
              {submitting ? m.logging_in() : m.log_in()}
            </button>
          </fieldset>
        </form>
        <div className={linkRow}>
          <Link href={routes.forgotPassword}>{m.forgot_password_2()}</Link>
          <span>
            {m.no_account_yet()} <Link href={routes.register}>{m.sign_up_2()}</Link>
          </span>
        </div>
      </div>
    </div>
  );
}
