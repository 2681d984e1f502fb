/** Sign-up (/register) and its code step (/register/verify?q=&email=), one flow. */
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { EARLIEST_BIRTHDATE, todayIso } from '../../api/schemas';
import { createAuthActors } from '../../machines/actors';
import { parse } from '../../machines/signUp/signUp.address';
import { connectSignUp } from '../../machines/signUp/signUp.connect';
import { signUpMachine } from '../../machines/signUp/signUp.machine';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button, card, fieldset, form, heading, linkRow, muted, narrowPage } from '../../styles/ui.css';
import { goToAction, notifyFor, startSessionAction } from '../parts/bindings';
import { CodeForm } from '../parts/CodeForm';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { messageParts } from '../parts/messageParts';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useApi } from '../useApi';
import { useCommonPasswords } from '../useCommonPasswords';
import { useConnect, useFlow } from '../useFlow';
import { useLocationEvents } from '../useUrlProjection';
import * as css from './register.css';

const FIELDS = ['email', 'password', 'passwordConfirm', 'firstName', 'lastName', 'birthdate'] as const;

export default function RegisterPage() {
  const { session } = useServices();
  const api = useApi();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const actor = useFlow(signUpMachine, {
    actors: createAuthActors(api),
    actions: {
      notify: notifyFor('signUp'),
      startSession: startSessionAction(session),
      goTo: goToAction(navigate),
    },
    input: parse(path, search),
  });
  useLocationEvents(actor, path, search, parse);
  const { step, register, code } = useConnect(actor, connectSignUp);
  const { fieldErrors, serverMessage } = register;
  const [termsAccepted, setTermsAccepted] = useState(false);
  useCommonPasswords(step === 'register');

  function onRegister(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    register.onSubmit(formValues(event.currentTarget, FIELDS));
  }

  if (step === 'linkIncomplete') {
    return (
      <div className={narrowPage}>
        <div className={card}>
          <h1 className={heading}>{m.verify_your_email()}</h1>
          <p role="alert">{m.this_verification_link_is_incomplete()}</p>
          <Link href={routes.register} className={button.primary}>{m.sign_up_again()}</Link>
        </div>
      </div>
    );
  }

  if (step === 'verify') {
    return (
      <div className={narrowPage}>
        <div className={card}>
          <h1 className={heading}>{m.verify_your_email()}</h1>
          <CodeForm {...code} />
        </div>
      </div>
    );
  }

  const { submitting, prefillEmail: prefill } = register;
  return (
    <div className={narrowPage}>
      <div className={card}>
        <h1 className={heading}>{m.create_your_account()}</h1>
        <form className={form} onSubmit={onRegister} noValidate aria-label={m.sign_up_2()}>
          <ErrorBox message={serverMessage} />
          <fieldset className={fieldset} disabled={submitting}>
            <TextField label={m.email()} name="email" type="email" autoComplete="email" defaultValue={prefill} error={fieldErrors.email} />
            <TextField label={m.password()} name="password" type="password" autoComplete="new-password" error={fieldErrors.password} />
            <TextField label={m.confirm_password()} name="passwordConfirm" type="password" autoComplete="new-password" error={fieldErrors.passwordConfirm} />
            <div className={css.nameRow}>
              <TextField label={m.first_name()} name="firstName" autoComplete="given-name" error={fieldErrors.firstName} />
              <TextField label={m.last_name()} name="lastName" autoComplete="family-name" error={fieldErrors.lastName} />
            </div>
            <TextField label={m.birthdate()} name="birthdate" type="date" autoComplete="bday" min={EARLIEST_BIRTHDATE} max={todayIso()} error={fieldErrors.birthdate} />
            <label className={css.terms}>
              <input type="checkbox" name="terms" checked={termsAccepted} onChange={(e) => setTermsAccepted(e.currentTarget.checked)} aria-describedby="terms-hint" />
              <span>
                {messageParts(m.accept_terms_and_conditions_and, {
                  termsLink: <Link href={routes.terms}>{m.terms_and_conditions()}</Link>,
                  privacyLink: <Link href={routes.privacy}>{m.privacy_policy()}</Link>,
                })}
              </span>
            </label>
            <p id="terms-hint" className={`${muted} ${css.hint}`}>{termsAccepted ? m.you_can_now_sign_up() : m.accept_the_terms_and_conditions_to()}</p>
            <button type="submit" className={button.primary} disabled={!termsAccepted} aria-busy={submitting} aria-describedby="terms-hint">
              {submitting ? m.signing_up() : m.sign_up()}
            </button>
          </fieldset>
        </form>
        <p className={`${linkRow} ${muted}`}>
          <span>{m.already_have_an_account()} <Link href={routes.login}>{m.log_in_2()}</Link></span>
        </p>
      </div>
    </div>
  );
}
