/**
 * The 6-character code step shared by sign-up and recovery, with 'Resend OTP'. The server sends a new code
 * no sooner than 60 s after the last (server/identity/codes.ts OTP_RESEND_AFTER_S, product.md#otp-resend-wait):
 * 'Resend OTP' waits that long, with the seconds left shown beside it, from the code sent before this form
 * showed and from each code sent again; a refused resend does not start a new wait.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { OTP_LENGTH } from '../../api/schemas';
import { m } from '../../i18n';
import { button, fieldset, form, linkRow, muted } from '../../styles/ui.css';
import { ErrorBox } from './ErrorBox';
import { messageParts } from './messageParts';
import { TextField } from './TextField';

/** The server's wait between two codes, in seconds (a test of the forms' other paths may set it to 0). */
export const RESEND_WAIT = { seconds: 60 };

/** Seconds left before 'Resend OTP' is offered again; starts on arrival and after each resend that went through. */
function useResendWait(resending: boolean, serverMessage: string | null) {
  const [until, setUntil] = useState(() => Date.now() + RESEND_WAIT.seconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const [askedAt, setAskedAt] = useState(0);
  const [wasResending, setWasResending] = useState(resending);
  if (wasResending !== resending) {
    setWasResending(resending);
    // A resend just ended; it went through when the server said nothing against it: the wait counts from the ask.
    if (wasResending && !serverMessage) {
      setUntil(askedAt + RESEND_WAIT.seconds * 1000);
      setNow(askedAt);
    }
  }
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left, now]);
  return { left, asked: () => setAskedAt(Date.now()) };
}

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
  const { left: wait, asked } = useResendWait(resending, serverMessage);
  const waitId = useId();
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
        <button type="button" className={button.secondary} onClick={() => { asked(); onResend(); }} disabled={busy || wait > 0} aria-busy={resending} aria-describedby={wait > 0 ? waitId : undefined}>
          {resending ? m.sending() : m.resend_otp()}
        </button>
        {wait > 0 && <span id={waitId} className={muted}>{m.you_can_ask_for_a_new_code_in({ seconds: String(wait) })}</span>}
        {onCancel && <button type="button" className={button.secondary} onClick={onCancel} disabled={busy}>{m.cancel()}</button>}
      </div>
    </form>
  );
}
