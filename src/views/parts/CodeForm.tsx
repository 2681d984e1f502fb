/** The 6-character code step shared by sign-up and recovery, with 'Resend OTP'. */
import type { FormEvent } from 'react';
import { OTP_LENGTH } from '../../api/schemas';
import { m } from '../../i18n';
import { button, fieldset, form, linkRow, muted } from '../../styles/ui.css';
import { ErrorBox } from './ErrorBox';
import { messageParts } from './messageParts';
import { TextField } from './TextField';

interface CodeFormProps {
  email: string | null;
  error: string | undefined;
  serverMessage: string | null;
  verifying: boolean;
  resending: boolean;
  onSubmit: (otpCode: string) => void;
  onResend: () => void;
  onCancel?: () => void;
}

export function CodeForm({ email, error, serverMessage, verifying, resending, onSubmit, onResend, onCancel }: CodeFormProps) {
  const busy = verifying || resending;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(String(new FormData(event.currentTarget).get('otpCode') ?? ''));
  }
  return (
    <form className={form} onSubmit={submit} noValidate aria-label={m.verify_otp()}>
      <p className={muted}>
        {messageParts(m.we_sent_a_character_otp_to_it_is, { OTP_LENGTH: String(OTP_LENGTH), email: <strong>{email}</strong> })}
      </p>
      <ErrorBox message={serverMessage} />
      <fieldset className={fieldset} disabled={busy}>
        <TextField
          label={m.otp_code()} name="otpCode" autoComplete="one-time-code" inputMode="text"
          maxLength={OTP_LENGTH} autoCapitalize="characters" spellCheck={false} error={error}
          onInput={(e) => { e.currentTarget.value = e.currentTarget.value.toUpperCase(); }}
        />
        <button type="submit" className={button.primary} aria-busy={verifying}>{verifying ? m.verifying() : m.verify()}</button>
      </fieldset>
      <div className={linkRow}>
        <button type="button" className={button.secondary} onClick={onResend} disabled={busy} aria-busy={resending}>
          {resending ? m.sending() : m.resend_otp()}
        </button>
        {onCancel && <button type="button" className={button.secondary} onClick={onCancel} disabled={busy}>{m.cancel()}</button>}
      </div>
    </form>
  );
}
