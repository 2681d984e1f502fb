/** The audit log (issue 35): every operator action, newest first, searchable and filtered, 50 a page. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { AUDIT_ACTIONS, type AuditEntry } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { button, field, heading, input, label as labelClass } from '../../styles/ui.css';
import { TextField } from '../parts/TextField';
import { viewerPath } from './opsPaths';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle, when } from './parts';

const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

export function AuditTable({ entries, caption }: { entries: AuditEntry[]; caption: string }) {
  return (
    <Table caption={caption} head={[m.ops_col_when(), m.ops_col_who(), m.ops_col_action(), m.ops_col_target(), m.ops_col_reason(), m.ops_col_change()]}>
      {entries.map((entry) => (
        <tr key={entry.id}>
          <td>{when(entry.at)}</td>
          <td><span className={css.mono}>{entry.actorEmail}</span> ({entry.actorRole})</td>
          <td className={`${css.mono} ${css.nowrap}`}>{entry.action}</td>
          <td>
            {entry.targetUserId ? <Link href={viewerPath(entry.targetUserId)}>{entry.targetEmail ?? entry.targetUserId}</Link> : (entry.targetEmail ?? '')}
            {entry.targetType ? <span className={css.small}> {entry.targetType} <span className={css.mono}>{entry.targetId}</span></span> : null}
          </td>
          <td>{entry.reason ?? '—'}</td>
          <td className={css.small}><span className={css.mono}>{show(entry.before)} → {show(entry.after)}</span></td>
        </tr>
      ))}
    </Table>
  );
}

export function AuditPage() {
  useOpsTitle(m.ops_audit());
  const { api } = useOps();
  const [filters, setFilters] = useState({ q: '', action: '', actor: '' });
  const audit = useInfiniteQuery({
    queryKey: ['ops', 'audit', filters],
    queryFn: ({ pageParam, signal }) => api.audit({ ...filters, cursor: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    setFilters({ q: text('q'), action: text('action'), actor: text('actor') });
  }
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_audit()}</h1>
      <form className={css.grid2} role="search" aria-label={m.ops_audit_search()} onSubmit={onSubmit} noValidate>
        <TextField label={m.ops_audit_search_label()} name="q" type="search" defaultValue={filters.q} autoComplete="off" />
        <TextField label={m.ops_audit_actor_label()} name="actor" defaultValue={filters.actor} autoComplete="off" />
        <div className={field}>
          <label htmlFor="ops-audit-action" className={labelClass}>{m.ops_col_action()}</label>
          <select id="ops-audit-action" name="action" className={input} defaultValue={filters.action}>
            <option value="">{m.ops_all_actions()}</option>
            {AUDIT_ACTIONS.map((action) => <option key={action} value={action}>{action}</option>)}
          </select>
        </div>
        <div className={css.row}><button type="submit" className={button.primary}>{m.ops_search()}</button></div>
      </form>
      <section className={css.section} aria-labelledby="ops-audit-list">
        <h2 id="ops-audit-list" className={css.sectionTitle}>{m.ops_audit_entries()}</h2>
        {audit.isPending && <Loading />}
        {audit.isError && <ReadFailed error={audit.error} onRetry={() => void audit.refetch()} />}
        {audit.isSuccess && entries.length === 0 && <Empty>{m.ops_no_audit_yet()}</Empty>}
        {entries.length > 0 && <AuditTable entries={entries} caption={entries.length === 1 ? m.ops_audit_caption_one() : m.ops_audit_caption({ count: String(entries.length) })} />}
        {audit.hasNextPage && (
          <p><button type="button" className={button.secondary} onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>{m.ops_more()}</button></p>
        )}
      </section>
    </div>
  );
}
