/** The faces of the back office's door: enrol (QR, secret, first code), recovery codes once, verify. */
import { Suspense, type FormEvent } from 'react';
import { m } from '../../i18n';
import type { EnrolStart } from '../../api/ops/schemas';
import { button, card, fieldset, form, heading, muted, narrowPage } from '../../styles/ui.css';
import { lazyPage } from '../lazyPage';
import { ErrorBox } from '../parts/ErrorBox';
import { TextField } from '../parts/TextField';
import * as css from './ops.css';
import { useOpsTitle } from './parts';

/** The download code comes when a file is saved (it is shared by pages that would otherwise list it in the landing's preload map). */
const saveLater = (blob: Blob, name: string) => void import('../saveFile').then(({ saveFile }) => saveFile(blob, name));

function valueOf(event: FormEvent<HTMLFormElement>, name: string): string {
  const value = new FormData(event.currentTarget).get(name);
  return typeof value === 'string' ? value : '';
}

interface CodeFormProps {
  label: string;
  hint: string;
  submitting: boolean;
  code: string;
  fieldError: string | null;
  serverMessage: string | null;
  onSubmit: (code: string) => void;
}

/** One code field and Verify: a refusal stays at the field, what was typed stays. */
function CodeForm({ label, hint, submitting, code, fieldError, serverMessage, onSubmit }: CodeFormProps) {
  return (
    <form className={form} noValidate onSubmit={(event) => { event.preventDefault(); onSubmit(valueOf(event, 'code')); }}>
      <p className={css.small}>{hint}</p>
      <fieldset className={fieldset} disabled={submitting}>
        <TextField
          label={label} name="code" defaultValue={code} autoComplete="one-time-code" spellCheck={false} maxLength={20}
          error={fieldError ?? serverMessage ?? undefined} focusOnLateError
        />
        <button type="submit" className={button.primary} aria-busy={submitting}>{submitting ? m.ops_verifying() : m.ops_verify()}</button>
      </fieldset>
    </form>
  );
}

/** The QR loads with enrolment only (its own lazy part: `qrcode` is not in the console's pages). */
const EnrolQr = lazyPage<{ url: string }>(() => import('./EnrolQr'));

export function EnrolView(props: Omit<CodeFormProps, 'label' | 'hint'> & { enrolment: EnrolStart | null }) {
  useOpsTitle(m.ops_console());
  return (
    <div className={narrowPage}>
      <section className={card} aria-labelledby="ops-enrol-title">
        <h1 id="ops-enrol-title" className={heading}>{m.ops_enrol_title()}</h1>
        <p>{m.ops_enrol_intro()}</p>
        {props.enrolment && (
          <>
            <Suspense fallback={<p className={muted} role="status">{m.loading()}</p>}><EnrolQr url={props.enrolment.otpauthUrl} /></Suspense>
            <p className={css.small}>{m.ops_enrol_secret_label()}</p>
            <p className={css.mono} data-testid="ops-secret">{props.enrolment.secret}</p>
          </>
        )}
        <CodeForm {...props} label={m.ops_code_from_app()} hint={m.ops_enrol_code_hint()} />
      </section>
    </div>
  );
}

export function RecoveryCodesView({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  useOpsTitle(m.ops_console());
  return (
    <div className={narrowPage}>
      <section className={card} aria-labelledby="ops-codes-title">
        <h1 id="ops-codes-title" className={heading}>{m.ops_recovery_codes_title()}</h1>
        <p>{m.ops_recovery_codes_intro()}</p>
        <ul className={css.codes} aria-label={m.ops_recovery_codes_title()}>
          {codes.map((code) => <li key={code}>{code}</li>)}
        </ul>
        {/* Shown once: a file to keep offline (newcomer walk). */}
        <p>
          <button type="button" className={button.secondary} onClick={() => saveLater(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }), 'sine-bisaya-ops-recovery-codes.txt')}>
            {m.ops_download_recovery_codes()}
          </button>
        </p>
        <button type="button" className={button.primary} onClick={onSaved}>{m.ops_i_saved_them()}</button>
      </section>
    </div>
  );
}

export function VerifyView(props: Omit<CodeFormProps, 'label' | 'hint'> & { resumed: boolean }) {
  useOpsTitle(m.ops_console());
  return (
    <div className={narrowPage}>
      <section className={card} aria-labelledby="ops-verify-title">
        <h1 id="ops-verify-title" className={heading}>{m.ops_verify_title()}</h1>
        {props.resumed && <p role="alert">{m.ops_session_expired()}</p>}
        <p className={muted}>{m.ops_verify_intro()}</p>
        <CodeForm {...props} label={m.ops_code_label()} hint={m.ops_verify_code_hint()} />
      </section>
    </div>
  );
}

export function GateProblem({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div className={narrowPage}>
      <section className={card} aria-labelledby="ops-problem-title">
        <h1 id="ops-problem-title" className={heading}>{m.ops_console()}</h1>
        <ErrorBox message={message} />
        <p><button type="button" className={button.primary} onClick={onRetry}>{m.try_again()}</button></p>
      </section>
    </div>
  );
}
