/**
 * A viewer's timeline (issue 35): subscriptions (with retry, dunning, extend, cancel), payment records
 * with every gateway attempt and what Maya says of each, mails (with resend), webhooks, sessions and
 * the audit entries about them. Every action goes through the one action panel (opsAction).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { GatewayAttempt, TimelinePayment, TimelineSubscription, ViewerTimeline } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { formatPesos } from '../../machines/opsAction';
import { button, heading } from '../../styles/ui.css';
import { ActionPanel, isOpenFor, useOpsAction, type OpsActionView } from './ActionPanel';
import { AuditTable } from './AuditPage';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle, when } from './parts';

const ENDED = ['CANCELED', 'CANCELLED', 'EXPIRED', 'ENDED'];
const UNSETTLED = ['OPEN', 'UNKNOWN'];

export function ViewerPage({ userId }: { userId: string }) {
  const { api } = useOps();
  const timeline = useQuery({ queryKey: ['ops', 'viewer', userId], queryFn: ({ signal }) => api.viewer({ userId }, signal) });
  const action = useOpsAction();
  useOpsTitle(timeline.data ? timeline.data.viewer.email : m.ops_viewer());
  if (timeline.isPending) return <div className={css.stack}><h1 className={heading}>{m.ops_viewer()}</h1><Loading /></div>;
  if (timeline.isError) return <div className={css.stack}><h1 className={heading}>{m.ops_viewer()}</h1><ReadFailed error={timeline.error} onRetry={() => void timeline.refetch()} /></div>;
  const data = timeline.data;
  const { viewer } = data;
  return (
    <div className={css.stack}>
      <div className={css.pageHead}>
        <h1 className={heading}>{viewer.name || viewer.email}</h1>
        <p className={css.small}>
          <span className={css.mono}>{viewer.email}</span> · {m.ops_language({ language: viewer.language })} · {m.ops_joined({ date: formatDate(viewer.createdAt) })}
          {viewer.tin ? ` · TIN ${viewer.tin}` : ''}
        </p>
      </div>
      <Subscriptions data={data} action={action} />
      <Payments data={data} action={action} />
      <Mails data={data} action={action} />
      <section className={css.section} aria-labelledby="ops-webhooks">
        <h2 id="ops-webhooks" className={css.sectionTitle}>{m.ops_webhooks()}</h2>
        {data.webhooks.length === 0 ? <Empty>{m.ops_none_yet()}</Empty> : (
          <Table caption={m.ops_webhooks_caption()} head={[m.ops_col_received(), m.ops_col_verified(), m.ops_col_status(), m.ops_col_maya_id(), m.ops_col_why()]}>
            {data.webhooks.map((hook) => (
              <tr key={hook.id}>
                <td>{when(hook.receivedAt)}</td>
                <td><span className={hook.verified ? css.badge.ok : css.badge.warn}>{hook.verified ? m.ops_verified() : m.ops_not_verified()}</span></td>
                <td>{hook.status ?? '—'}</td>
                <td className={css.mono}>{hook.paymentId ?? '—'}</td>
                <td>{hook.why ?? '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section className={css.section} aria-labelledby="ops-sessions">
        <h2 id="ops-sessions" className={css.sectionTitle}>{m.ops_sessions()}</h2>
        {data.sessions.length === 0 ? <Empty>{m.ops_none_yet()}</Empty> : (
          <Table caption={m.ops_sessions_caption()} head={[m.ops_col_session(), m.ops_col_started(), m.ops_col_ended()]}>
            {data.sessions.map((session) => (
              <tr key={session.id}><td className={css.mono}>{session.id.slice(0, 8)}</td><td>{when(session.createdAt)}</td><td>{session.revokedAt ? when(session.revokedAt) : m.ops_active()}</td></tr>
            ))}
          </Table>
        )}
      </section>
      <section className={css.section} aria-labelledby="ops-viewer-audit">
        <h2 id="ops-viewer-audit" className={css.sectionTitle}>{m.ops_audit_entries()}</h2>
        {data.audit.length === 0 ? <Empty>{m.ops_no_audit_yet()}</Empty> : <AuditTable entries={data.audit} caption={m.ops_viewer_audit_caption({ email: viewer.email })} />}
      </section>
    </div>
  );
}

function Subscriptions({ data, action }: { data: ViewerTimeline; action: OpsActionView }) {
  const { can } = useOps();
  const email = data.viewer.email;
  const choose = (sub: TimelineSubscription, kind: 'retry' | 'dunning' | 'extend' | 'cancel') =>
    action.onChoose({ kind, id: sub.id, email, stop: kind === 'dunning' ? !sub.dunningStopped : undefined, maxDays: can('finance') ? 366 : 7 });
  return (
    <section className={css.section} aria-labelledby="ops-subscriptions">
      <h2 id="ops-subscriptions" className={css.sectionTitle}>{m.ops_subscriptions()}</h2>
      {data.subscriptions.length === 0 ? <Empty>{m.ops_none_yet()}</Empty> : data.subscriptions.map((sub) => {
        const ended = ENDED.includes(sub.status.toUpperCase());
        const dunned = sub.status.toUpperCase() === 'PAST_DUE';
        return (
          <article key={sub.id} className={css.item} aria-label={`${sub.planName} ${sub.status}`}>
            <p>
              <strong>{sub.planName}</strong> · <span className={sub.status === 'PAST_DUE' ? css.badge.warn : css.badge.plain}>{sub.status}</span>{' '}
              · {m.ops_period({ start: formatDate(sub.startDate), end: sub.endDate ? formatDate(sub.endDate) : '—' })}
              {sub.paymentMethod ? ` · ${sub.paymentMethod}` : ''}
            </p>
            {(dunned || sub.retryCount > 0 || sub.dunningStopped || sub.canceledAt) && (
              <p className={css.small}>
                {dunned || sub.retryCount > 0 ? m.ops_retries({ count: String(sub.retryCount), next: when(sub.nextRetryAt) }) : ''}
                {sub.dunningStopped ? ` · ${m.ops_dunning_stopped()}` : ''}
                {sub.canceledAt ? ` · ${m.ops_canceled_on({ date: formatDate(sub.canceledAt), reason: sub.cancelReason ?? '—' })}` : ''}
              </p>
            )}
            {!ended && (
              <div className={css.row}>
                {/* Retries are a PAST_DUE subscription's (dunning): a healthy one offers none (newcomer walk). */}
                {dunned && <button type="button" className={button.secondary} onClick={() => choose(sub, 'retry')}>{m.ops_retry_renewal()}</button>}
                {(dunned || sub.dunningStopped) && (
                  <button type="button" className={button.secondary} onClick={() => choose(sub, 'dunning')}>{sub.dunningStopped ? m.ops_resume_dunning() : m.ops_stop_dunning()}</button>
                )}
                <button type="button" className={button.secondary} onClick={() => choose(sub, 'extend')}>{m.ops_extend_period()}</button>
                <button type="button" className={button.danger} onClick={() => choose(sub, 'cancel')}>{m.ops_cancel_subscription()}</button>
              </div>
            )}
            {isOpenFor(action, ['retry', 'dunning', 'extend', 'cancel'], sub.id) && <ActionPanel view={action} />}
          </article>
        );
      })}
    </section>
  );
}

function Payments({ data, action }: { data: ViewerTimeline; action: OpsActionView }) {
  return (
    <section className={css.section} aria-labelledby="ops-payments">
      <h2 id="ops-payments" className={css.sectionTitle}>{m.ops_payments()}</h2>
      {data.payments.length === 0 ? <Empty>{m.ops_none_yet()}</Empty> : (
        <div>
          {data.payments.map((payment) => <Payment key={payment.id} payment={payment} email={data.viewer.email} action={action} />)}
        </div>
      )}
    </section>
  );
}

function Payment({ payment, email, action }: { payment: TimelinePayment; email: string; action: OpsActionView }) {
  const { can } = useOps();
  const { reversible } = payment;
  const unsettled = payment.attempts.some((attempt) => UNSETTLED.includes(attempt.outcome));
  return (
    <article className={css.item} aria-labelledby={`ops-payment-${payment.id}`}>
      <div>
        <h3 id={`ops-payment-${payment.id}`} className={css.sectionTitle}>
          <span className={css.mono}>{payment.referenceNumber}</span> · {formatPesos(payment.amount)} · {payment.status}
        </h3>
        <p className={css.small}>
          {payment.method} · {when(payment.createdAt)}{payment.invoice ? ` · ${m.ops_invoice({ number: payment.invoice.number })}` : ''}
        </p>
      </div>
      <div className={css.row}>
        {can('finance') && reversible.kind !== 'none' && (
          <button
            type="button" className={button.danger}
            onClick={() => action.onChoose({ kind: 'reverse', id: payment.id, email, reverseKind: reversible.kind === 'void' ? 'void' : 'refund', maxAmount: reversible.maxAmount })}
          >
            {reversible.kind === 'void' ? m.ops_void_payment() : m.ops_refund_payment()}
          </button>
        )}
        {unsettled && (
          <button type="button" className={button.secondary} onClick={() => action.onChoose({ kind: 'resolve', id: payment.id, email })}>{m.ops_resolve_record()}</button>
        )}
        {reversible.kind !== 'none' && reversible.why && <span className={css.small}>{reversible.why}</span>}
      </div>
      {reversible.kind === 'none' && reversible.why && <p className={css.small} data-testid="not-reversible">{reversible.why}</p>}
      {isOpenFor(action, ['reverse', 'resolve'], payment.id) && <ActionPanel view={action} />}
      <Attempts attempts={payment.attempts} reference={payment.referenceNumber} />
    </article>
  );
}

function Attempts({ attempts, reference }: { attempts: GatewayAttempt[]; reference: string }) {
  if (attempts.length === 0) return <Empty>{m.ops_no_attempts()}</Empty>;
  return (
    <Table caption={m.ops_attempts_caption({ reference })} head={[m.ops_col_kind(), m.ops_col_maya_id(), m.ops_col_amount(), m.ops_col_outcome(), m.ops_col_made(), m.ops_col_maya_says()]}>
      {attempts.map((attempt) => (
        <tr key={attempt.id}>
          <td>{attempt.kind}{attempt.reverses ? ` (${m.ops_reverses()})` : ''}</td>
          <td className={css.mono}>{attempt.mayaId ?? '—'}</td>
          <td>{formatPesos(attempt.amount)}</td>
          <td>{attempt.outcome}{attempt.reason ? ` · ${attempt.reason}` : ''}</td>
          <td>{when(attempt.madeAt)}</td>
          <td><AskMaya attemptId={attempt.id} /></td>
        </tr>
      ))}
    </Table>
  );
}

/** "Ask Maya": reads one attempt from the gateway now (only when pressed). */
function AskMaya({ attemptId }: { attemptId: string }) {
  const { api } = useOps();
  const [asked, setAsked] = useState(false);
  const maya = useQuery({ queryKey: ['ops', 'maya', attemptId], queryFn: ({ signal }) => api.mayaView({ attemptId }, signal), enabled: asked });
  if (!asked) return <button type="button" className={css.linkButton} onClick={() => setAsked(true)}>{m.ops_ask_maya()}</button>;
  if (maya.isPending) return <Loading />;
  if (maya.isError) return <ReadFailed error={maya.error} onRetry={() => void maya.refetch()} />;
  return (
    <div role="status">
      <strong>{maya.data.status}</strong>{maya.data.amount ? ` · ${formatPesos(maya.data.amount)}` : ''}
      <details><summary>{m.ops_raw_answer()}</summary><pre className={css.pre}>{JSON.stringify(maya.data.raw, null, 2)}</pre></details>
    </div>
  );
}

function Mails({ data, action }: { data: ViewerTimeline; action: OpsActionView }) {
  return (
    <section className={css.section} aria-labelledby="ops-mails">
      <h2 id="ops-mails" className={css.sectionTitle}>{m.ops_mails()}</h2>
      {data.mails.length === 0 ? <Empty>{m.ops_none_yet()}</Empty> : (
        <Table caption={m.ops_mails_caption()} head={[m.ops_col_subject(), m.ops_col_sent(), m.ops_col_action()]}>
          {data.mails.map((mail) => (
            <tr key={mail.id}>
              <td>{mail.subject}</td>
              <td>{when(mail.sentAt)}</td>
              <td>
                <button type="button" className={css.linkButton} onClick={() => action.onChoose({ kind: 'resend', id: mail.id, email: data.viewer.email, subject: mail.subject })}>
                  {m.ops_resend()}
                </button>
                {isOpenFor(action, 'resend', mail.id) && <ActionPanel view={action} />}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
