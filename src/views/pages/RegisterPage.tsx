/** Sign-up (/register) and its code step (/register/verify?q=&email=), one flow. */
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { EARLIEST_BIRTHDATE, todayIso } from '../../api/schemas';
import { createAuthActors } from '../../machines/actors';
import { signUpMachine, type SignUpLocation } from '../../machines/signUp.machine';
import { routes } from '../../lib/route-paths';
import { button, card, fieldset, form, heading, linkRow, muted, narrowPage } from '../../styles/ui.css';
import { notifyAction, startSessionAction } from '../parts/bindings';
import { CodeForm, codeStepProps } from '../parts/CodeForm';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useFlow } from '../useFlow';
import { useLocationEvents } from '../useUrlProjection';
import * as css from './register.css';

const FIELDS = ['email', 'password', 'passwordConfirm', 'firstName', 'lastName', 'birthdate'] as const;

function locationOf(path: string, search: string): SignUpLocation {
  const params = new URLSearchParams(search);
  return {
    step: path === routes.registerVerify ? 'verify' : 'register',
    verificationToken: params.get('q'),
    email: params.get('email'),
  };
}

export default function RegisterPage() {
  const { api, session } = useServices();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const location = locationOf(path, search);
  const actor = useFlow(signUpMachine, {
    actors: createAuthActors(api),
    actions: {
      notify: notifyAction,
      startSession: startSessionAction(session),
      showVerifyStep: (_: unknown, p: { verificationToken: string; email: string }) =>
        navigate(`${routes.registerVerify}?${new URLSearchParams({ q: p.verificationToken, email: p.email })}`),
      goToSubscription: () => navigate(routes.subscription, { replace: true }),
    },
    input: location,
  });
  useLocationEvents(actor.send, path, search, locationOf);

  const state = useSelector(actor, (s) => s);
  const { fieldErrors, serverMessage } = state.context;
  const [termsAccepted, setTermsAccepted] = useState(false);

  function onRegister(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    actor.send({ type: 'form.submit', values: formValues(event.currentTarget, FIELDS) });
  }

  if (state.matches('linkIncomplete')) {
    return (
      <div className={narrowPage}>
        <div className={card}>
          <h1 className={heading}>Verify your email</h1>
          <p role="alert">This verification link is incomplete. Please sign up again to get a new code.</p>
          <Link href={routes.register} className={button.primary}>Sign up again</Link>
        </div>
      </div>
    );
  }

  if (state.matches('verify')) {
    return (
      <div className={narrowPage}>
        <div className={card}>
          <h1 className={heading}>Verify your email</h1>
          <CodeForm {...codeStepProps(state, actor.send)} />
        </div>
      </div>
    );
  }

  const submitting = state.matches({ register: 'submitting' });
  const prefill = new URLSearchParams(search).get('email') ?? '';
  return (
    <div className={narrowPage}>
      <div className={card}>
        <h1 className={heading}>Create your account</h1>
        <form className={form} onSubmit={onRegister} noValidate aria-label="Sign up">
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={submitting}>
            <TextField label="Email" name="email" type="email" autoComplete="email" defaultValue={prefill} error={fieldErrors.email} />
            <TextField label="Password" name="password" type="password" autoComplete="new-password" error={fieldErrors.password} />
            <TextField label="Confirm Password" name="passwordConfirm" type="password" autoComplete="new-password" error={fieldErrors.passwordConfirm} />
            <div className={css.nameRow}>
              <TextField label="First Name" name="firstName" autoComplete="given-name" error={fieldErrors.firstName} />
              <TextField label="Last Name" name="lastName" autoComplete="family-name" error={fieldErrors.lastName} />
            </div>
            <TextField label="Birthdate" name="birthdate" type="date" autoComplete="bday" min={EARLIEST_BIRTHDATE} max={todayIso()} error={fieldErrors.birthdate} />
            <label className={css.terms}>
              <input type="checkbox" name="terms" checked={termsAccepted} onChange={(e) => setTermsAccepted(e.currentTarget.checked)} aria-describedby="terms-hint" />
              <span>
                Accept terms and conditions (<Link href={routes.terms}>Terms and Conditions</Link> and{' '}
                <Link href={routes.privacy}>Privacy Policy</Link>)
              </span>
            </label>
            <p id="terms-hint" className={`${muted} ${css.hint}`}>{termsAccepted ? 'You can now sign up.' : 'Accept the terms and conditions to sign up.'}</p>
            <button type="submit" className={button.primary} disabled={!termsAccepted} aria-busy={submitting} aria-describedby="terms-hint">
              {submitting ? 'Signing Up...' : 'Sign Up'}
            </button>
          </fieldset>
        </form>
        <p className={`${linkRow} ${muted}`}>
          <span>Already have an account? <Link href={routes.login}>Log in</Link></span>
        </p>
      </div>
    </div>
  );
}
