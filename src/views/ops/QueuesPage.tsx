/** The queues (issue 35): past due, our own failures, stuck attempts, reversals due or failed, unverified webhooks. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { m } from '../../i18n';
import { formatPesos } from '../../machines/opsAction';
import { heading } from '../../styles/ui.css';
import { viewerPath } from './opsPaths';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle, when } from './parts';

const Viewer = ({ userId, email }: { userId: string | null; email: string | null }) =>
  userId ? <Link href={viewerPath(userId)}>{email ?? userId}</Link> : <>{email ?? '—'}</>;

export function QueuesPage() {
  useOpsTitle(m.ops_queues());
  const { api } = useOps();
  const queues = useQuery({ queryKey: ['ops', 'queues'], queryFn: ({ signal }) => api.queues(undefined, signal) });
  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_queues()}</h1>
      {queues.isPending && <Loading />}
      {queues.isError && <ReadFailed error={queues.error} onRetry={() => void queues.refetch()} />}
      {queues.data && (
        <>
          <section className={css.section} aria-labelledby="q-past-due">
            <h2 id="q-past-due" className={css.sectionTitle}>{m.ops_queue_past_due()} ({queues.data.pastDue.length})</h2>
            {queues.data.pastDue.length === 0 ? <Empty>{m.ops_queue_empty()}</Empty> : (
              <Table caption={m.ops_queue_past_due()} head={[m.ops_col_viewer(), m.ops_col_plan(), m.ops_col_reason(), m.ops_col_attempts(), m.ops_col_next_try()]}>
                {queues.data.pastDue.map((row) => (
                  <tr key={row.subscriptionId}><td><Viewer {...row} /></td><td>{row.planName}</td><td>{row.reason ?? '—'}{row.dunningStopped ? ` · ${m.ops_dunning_stopped()}` : ''}</td><td>{row.attempts}</td><td>{when(row.nextTryAt)}</td></tr>
                ))}
              </Table>
            )}
          </section>
          <section className={css.section} aria-labelledby="q-our-fault">
            <h2 id="q-our-fault" className={css.sectionTitle}>{m.ops_queue_our_fault()} ({queues.data.ourFault.length})</h2>
            {queues.data.ourFault.length === 0 ? <Empty>{m.ops_queue_empty()}</Empty> : (
              <Table caption={m.ops_queue_our_fault()} head={[m.ops_col_viewer(), m.ops_col_amount(), m.ops_col_reason(), m.ops_col_attempts(), m.ops_col_next_try()]}>
                {queues.data.ourFault.map((row) => (
                  <tr key={row.recordId}><td><Viewer {...row} /></td><td>{formatPesos(row.amount)}</td><td>{row.reason ?? '—'}</td><td>{row.attempts}</td><td>{when(row.nextTryAt)}</td></tr>
                ))}
              </Table>
            )}
          </section>
          <section className={css.section} aria-labelledby="q-stuck">
            <h2 id="q-stuck" className={css.sectionTitle}>{m.ops_queue_stuck()} ({queues.data.stuck.length})</h2>
            {queues.data.stuck.length === 0 ? <Empty>{m.ops_queue_empty()}</Empty> : (
              <Table caption={m.ops_queue_stuck()} head={[m.ops_col_viewer(), m.ops_col_kind(), m.ops_col_outcome(), m.ops_col_amount(), m.ops_col_since()]}>
                {queues.data.stuck.map((row) => (
                  <tr key={row.attemptId}><td><Viewer {...row} /></td><td>{row.kind}</td><td>{row.outcome}{row.reason ? ` · ${row.reason}` : ''}</td><td>{formatPesos(row.amount)}</td><td>{when(row.since)}</td></tr>
                ))}
              </Table>
            )}
          </section>
          <section className={css.section} aria-labelledby="q-reversals">
            <h2 id="q-reversals" className={css.sectionTitle}>{m.ops_queue_reversals()} ({queues.data.reversals.length})</h2>
            {queues.data.reversals.length === 0 ? <Empty>{m.ops_queue_empty()}</Empty> : (
              <Table caption={m.ops_queue_reversals()} head={[m.ops_col_viewer(), m.ops_col_state(), m.ops_col_amount(), m.ops_col_reason(), m.ops_col_since()]}>
                {queues.data.reversals.map((row) => (
                  <tr key={row.attemptId}><td><Viewer {...row} /></td><td>{row.state === 'due' ? m.ops_reversal_due() : m.ops_reversal_failed()}</td><td>{formatPesos(row.amount)}</td><td>{row.reason ?? '—'}</td><td>{when(row.since)}</td></tr>
                ))}
              </Table>
            )}
          </section>
          <section className={css.section} aria-labelledby="q-webhooks">
            <h2 id="q-webhooks" className={css.sectionTitle}>{m.ops_queue_webhooks()} ({queues.data.unverifiedWebhooks.length})</h2>
            {queues.data.unverifiedWebhooks.length === 0 ? <Empty>{m.ops_queue_empty()}</Empty> : (
              <Table caption={m.ops_queue_webhooks()} head={[m.ops_col_viewer(), m.ops_col_maya_id(), m.ops_col_status(), m.ops_col_why(), m.ops_col_received()]}>
                {queues.data.unverifiedWebhooks.map((row) => (
                  <tr key={row.id}><td><Viewer {...row} /></td><td className={css.mono}>{row.mayaPaymentId ?? '—'}</td><td>{row.status ?? '—'}</td><td>{row.reason ?? '—'}</td><td>{when(row.since)}</td></tr>
                ))}
              </Table>
            )}
          </section>
        </>
      )}
    </div>
  );
}
