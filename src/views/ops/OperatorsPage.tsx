/** Operators (issue 35, admin): who has which role, grant or change a role, revoke an operator's sessions. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { grantRoleSchema, type GrantRole } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { button, field, fieldError as fieldErrorClass, fieldset, heading, input, label as labelClass } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { TextField } from '../parts/TextField';
import { ActionPanel, isOpenFor, useOpsAction } from './ActionPanel';
import { roleName } from './opsPaths';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle, when } from './parts';

const ROLE_CHOICES: GrantRole[] = [...grantRoleSchema.options];

export function OperatorsPage() {
  useOpsTitle(m.ops_operators());
  const { api } = useOps();
  const queryClient = useQueryClient();
  const operators = useQuery({ queryKey: ['ops', 'operators'], queryFn: ({ signal }) => api.operators(undefined, signal) });
  const action = useOpsAction();
  const [typed, setTyped] = useState({ email: '', role: 'support' as GrantRole, reason: '' });
  const [errors, setErrors] = useState<{ email?: string; reason?: string }>({});
  const grant = useMutation({
    mutationFn: () => api.grant({ email: typed.email.trim(), role: typed.role, reason: typed.reason.trim() }),
    onSuccess: () => {
      setTyped({ email: '', role: 'support', reason: '' });
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = {
      email: /^\S+@\S+\.\S+$/.test(typed.email.trim()) ? undefined : m.ops_email_required(),
      reason: typed.reason.trim().length >= 3 && typed.reason.trim().length <= 500 ? undefined : m.ops_reason_length(),
    };
    setErrors(next);
    if (!next.email && !next.reason) grant.mutate();
  }
  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_operators()}</h1>
      <section className={css.section} aria-labelledby="ops-operator-list">
        <h2 id="ops-operator-list" className={css.sectionTitle}>{m.ops_operators()}</h2>
        {operators.isPending && <Loading />}
        {operators.isError && <ReadFailed error={operators.error} onRetry={() => void operators.refetch()} />}
        {operators.data && operators.data.operators.length === 0 && <Empty>{m.ops_none_yet()}</Empty>}
        {operators.data && operators.data.operators.length > 0 && (
          <Table caption={m.ops_operators_caption()} head={[m.ops_col_email(), m.ops_col_role(), m.ops_col_enrolled(), m.ops_col_granted(), m.ops_col_sessions(), m.ops_col_action()]}>
            {operators.data.operators.map((row) => (
              <tr key={row.userId}>
                <td className={`${css.mono} ${css.nowrap}`}>{row.email}</td>
                <td>{roleName(row.role)}</td>
                <td>{row.enrolled ? m.ops_yes() : m.ops_no()}</td>
                <td>{when(row.grantedAt)}{row.grantedBy ? ` · ${row.grantedBy}` : ''}</td>
                <td>{row.activeSessions}</td>
                <td>
                  {row.activeSessions > 0 && (
                    <button type="button" className={css.linkButton} onClick={() => action.onChoose({ kind: 'revokeSessions', id: row.userId, email: row.email })}>{m.ops_revoke_sessions()}</button>
                  )}
                  {isOpenFor(action, 'revokeSessions', row.userId) && <ActionPanel view={action} />}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <section className={css.section} aria-labelledby="ops-grant">
        <h2 id="ops-grant" className={css.sectionTitle}>{m.ops_grant_title()}</h2>
        <form noValidate onSubmit={onSubmit} aria-label={m.ops_grant_title()}>
          <fieldset className={fieldset} disabled={grant.isPending}>
            <div className={css.grid2}>
              <TextField label={m.ops_col_email()} name="email" type="email" value={typed.email} onChange={(e) => setTyped({ ...typed, email: e.currentTarget.value })} error={errors.email} autoComplete="off" />
              <div className={field}>
                <label htmlFor="ops-grant-role" className={labelClass}>{m.ops_col_role()}</label>
                <select id="ops-grant-role" className={input} value={typed.role} onChange={(e) => setTyped({ ...typed, role: e.currentTarget.value as GrantRole })}>
                  {ROLE_CHOICES.map((role) => <option key={role} value={role}>{role === 'none' ? m.ops_role_none() : roleName(role)}</option>)}
                </select>
              </div>
            </div>
            <div className={field}>
              <label htmlFor="ops-grant-reason" className={labelClass}>{m.ops_reason_label()}</label>
              <textarea id="ops-grant-reason" className={css.textarea} value={typed.reason} maxLength={500} onChange={(e) => setTyped({ ...typed, reason: e.currentTarget.value })} aria-invalid={errors.reason ? true : undefined} aria-describedby={errors.reason ? 'ops-grant-reason-error' : undefined} />
              {errors.reason && <p id="ops-grant-reason-error" className={fieldErrorClass}>{errors.reason}</p>}
            </div>
            {grant.isError && <ErrorBox message={grant.error.message} />}
            {grant.isSuccess && <p role="status">{m.ops_granted({ email: grant.data.email, role: grant.data.role ? roleName(grant.data.role) : m.ops_role_none() })}</p>}
            <div><button type="submit" className={button.primary}>{m.ops_grant()}</button></div>
          </fieldset>
        </form>
      </section>
    </div>
  );
}
