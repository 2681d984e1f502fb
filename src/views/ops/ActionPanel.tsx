/**
 * The panel of a back office action (opsAction): the reason and the action's values, then the
 * confirmation sentence (amount and viewer), then what happened. It opens under the button that chose
 * it; each step takes focus to its heading or message, so keyboard and screen reader follow.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { OpsApi } from '../../api/ops/endpoints';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { connectOpsAction, formatPesos, opsActionMachine, type OpsActionRequest, type OpsActionTarget, type OpsActionValues } from '../../machines/opsAction';
import type { Text } from '../../machines/shared';
import { button, field, fieldError as fieldErrorClass, fieldset, label as labelClass } from '../../styles/ui.css';
import { focusFromScript } from '../focusFromScript';
import { ErrorBox } from '../parts/ErrorBox';
import { TextField } from '../parts/TextField';
import { useConnect, useFlow } from '../useFlow';
import * as css from './ops.css';
import { useOps } from './opsContext';

/** Runs one action on the API; answers what the operator reads once it is done. */
export async function runOpsAction(api: OpsApi, { target, values, requestKey }: OpsActionRequest, signal?: AbortSignal): Promise<Text> {
  const reason = values.reason;
  switch (target.kind) {
    case 'reverse': {
      const result = await api.reverse({ recordId: target.id, amount: values.amount, reason, requestKey }, signal);
      return result.kind === 'void'
        ? m.ops_done_void({ amount: formatPesos(result.amount), outcome: result.outcome })
        : m.ops_done_refund({ amount: formatPesos(result.amount), outcome: result.outcome });
    }
    case 'retry': {
      const result = await api.retry({ subscriptionId: target.id, reason }, signal);
      return m.ops_done_retry({ outcome: result.outcome });
    }
    case 'dunning':
      await api.setDunning({ subscriptionId: target.id, stopped: target.stop ?? true, reason }, signal);
      return target.stop ? m.ops_done_dunning_stopped() : m.ops_done_dunning_resumed();
    case 'extend': {
      const result = await api.extend({ subscriptionId: target.id, days: Number(values.days), reason }, signal);
      return m.ops_done_extend({ date: formatDate(result.endDate) });
    }
    case 'cancel':
      await api.cancel({ subscriptionId: target.id, when: values.when, reason }, signal);
      return values.when === 'now' ? m.ops_done_cancel_now() : m.ops_done_cancel_period_end();
    case 'resolve': {
      const result = await api.resolveRecord({ recordId: target.id, reason }, signal);
      return m.ops_done_resolve({ decision: result.decision, status: result.status });
    }
    case 'resend': {
      const result = await api.resendMail({ mailId: target.id, reason }, signal);
      return m.ops_done_resend({ email: result.to });
    }
    case 'disableCode':
      await api.disableVoucher({ code: target.id, reason }, signal);
      return m.ops_done_disable_code({ code: target.id });
    case 'disableBatch':
      await api.disableVoucherBatch({ batchId: target.id, reason }, signal);
      return m.ops_done_disable_batch();
    case 'revokeSessions': {
      const result = await api.revokeSessions({ userId: target.id, reason }, signal);
      return m.ops_done_revoke({ count: String(result.revoked) });
    }
  }
}

/** One action flow per page (one panel open at a time), bound to the API and the console's cache. */
export function useOpsAction() {
  const { api } = useOps();
  const queryClient = useQueryClient();
  const [actors] = useState(() => ({ runAction: fromPromise<Text, OpsActionRequest>(({ input, signal }) => runOpsAction(api, input, signal)) }));
  const actor = useFlow(opsActionMachine, {
    actors,
    actions: { actionDone: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }) },
  });
  const view = useConnect(actor, connectOpsAction);
  // Focus goes back to the button that opened the panel when it closes (newcomer walk: it fell to the page).
  const opener = useRef<HTMLElement | null>(null);
  const open = view.step !== 'idle';
  useEffect(() => {
    if (open) return;
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) focusFromScript(back);
  }, [open]);
  const { onChoose } = view;
  return {
    ...view,
    onChoose: (target: Parameters<typeof onChoose>[0]) => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body) opener.current = active;
      onChoose(target);
    },
  };
}

export type OpsActionView = ReturnType<typeof useOpsAction>;

/** Is this the item whose action is open? */
export const isOpenFor = (view: OpsActionView, kind: OpsActionTarget['kind'] | OpsActionTarget['kind'][], id: string) =>
  view.step !== 'idle' && view.target !== null && view.target.id === id && ([] as string[]).concat(kind).includes(view.target.kind);

function read(event: FormEvent<HTMLFormElement>, previous: OpsActionValues): OpsActionValues {
  const data = new FormData(event.currentTarget);
  const text = (name: string, fallback: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : fallback;
  };
  return {
    reason: text('reason', ''),
    amount: text('amount', previous.amount),
    days: text('days', previous.days),
    when: text('when', previous.when) === 'now' ? 'now' : 'period_end',
  };
}

export function ActionPanel({ view }: { view: OpsActionView }) {
  const { target, step, values, fieldErrors } = view;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const target = step === 'reason' ? headingRef.current : step === 'confirm' ? confirmRef.current : step === 'done' ? resultRef.current : null;
    if (target) focusFromScript(target);
  }, [step]);
  if (!target || step === 'idle') return null;
  const reasonId = `ops-reason-${target.kind}-${target.id}`;
  const editing = step === 'reason';
  return (
    <section className={css.panel} aria-labelledby={`${reasonId}-title`}>
      <h3 id={`${reasonId}-title`} ref={headingRef} tabIndex={-1} className={css.sectionTitle}>{view.title}</h3>
      {target.kind === 'reverse' && target.reverseKind === 'void' && <p className={css.small}>{m.ops_void_explained()}</p>}
      {target.kind === 'reverse' && target.reverseKind === 'refund' && <p className={css.small}>{m.ops_refund_explained({ max: formatPesos(target.maxAmount ?? '0') })}</p>}
      {editing ? (
        <form noValidate onSubmit={(event) => { event.preventDefault(); view.onSubmit(read(event, values)); }} aria-label={view.title}>
          <fieldset className={fieldset}>
            {target.kind === 'reverse' && (
              <TextField
                label={m.ops_amount_label()} name="amount" inputMode="decimal" defaultValue={values.amount} autoComplete="off"
                readOnly={target.reverseKind === 'void'} error={fieldErrors.amount}
              />
            )}
            {target.kind === 'extend' && (
              <TextField label={m.ops_days_label({ max: String(target.maxDays ?? 7) })} name="days" inputMode="numeric" defaultValue={values.days} autoComplete="off" error={fieldErrors.days} />
            )}
            {target.kind === 'cancel' && (
              <fieldset className={fieldset}>
                <legend className={labelClass}>{m.ops_cancel_when()}</legend>
                <label><input type="radio" name="when" value="period_end" defaultChecked={values.when === 'period_end'} /> {m.ops_cancel_period_end()}</label>
                <label><input type="radio" name="when" value="now" defaultChecked={values.when === 'now'} /> {m.ops_cancel_now()}</label>
              </fieldset>
            )}
            <ReasonField id={reasonId} defaultValue={values.reason} error={fieldErrors.reason} />
            <div className={css.row}>
              <button type="submit" className={button.primary}>{m.ops_continue()}</button>
              <button type="button" className={button.secondary} onClick={view.onClose}>{m.cancel()}</button>
            </div>
          </fieldset>
        </form>
      ) : step === 'done' ? (
        <>
          <p ref={resultRef} tabIndex={-1} role="status">{view.result}</p>
          <div className={css.row}><button type="button" className={button.secondary} onClick={view.onClose}>{m.close()}</button></div>
        </>
      ) : (
        <>
          <p ref={confirmRef} tabIndex={-1}><strong>{view.confirmation}</strong></p>
          <p className={css.small}>{m.ops_reason_given({ reason: values.reason })}</p>
          {step === 'failed' && <ErrorBox message={view.serverMessage} />}
          <div className={css.row}>
            <button type="button" className={button.primary} onClick={view.onConfirm} disabled={step === 'submitting'} aria-busy={step === 'submitting'}>
              {step === 'submitting' ? m.ops_working() : step === 'failed' ? m.try_again() : m.ops_confirm()}
            </button>
            <button type="button" className={button.secondary} onClick={view.onBack} disabled={step === 'submitting'}>{m.back()}</button>
            <button type="button" className={button.secondary} onClick={view.onClose} disabled={step === 'submitting'}>{m.cancel()}</button>
          </div>
        </>
      )}
    </section>
  );
}

function ReasonField({ id, defaultValue, error }: { id: string; defaultValue: string; error: string | undefined }) {
  return (
    <div className={field}>
      <label htmlFor={id} className={labelClass}>{m.ops_reason_label()}</label>
      <textarea
        id={id} name="reason" className={css.textarea} defaultValue={defaultValue} maxLength={500} required
        aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <p id={`${id}-error`} className={fieldErrorClass}>{error}</p>}
    </div>
  );
}
