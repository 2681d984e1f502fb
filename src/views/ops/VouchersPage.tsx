/** Voucher campaigns (issue 35): the batches, the mint form (voucherBatch), and a batch's page. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { Link, useLocation } from 'wouter';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { connectVoucherBatch, voucherBatchMachine, type VoucherBatchRequest, type VoucherBatchValues } from '../../machines/voucherBatch';
import { button, field, fieldError as fieldErrorClass, fieldset, heading, input, label as labelClass } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { TextField } from '../parts/TextField';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { ActionPanel, isOpenFor, useOpsAction } from './ActionPanel';
import { batchPath, viewerPath } from './opsPaths';
import { manilaToday } from './manila';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle, when } from './parts';

/** The download code comes when a file is saved (it is shared by pages that would otherwise list it in the landing's preload map). */
const saveLater = (blob: Blob, name: string) => void import('../saveFile').then(({ saveFile }) => saveFile(blob, name));

export function VouchersPage() {
  useOpsTitle(m.ops_vouchers());
  const { api } = useOps();
  const batches = useQuery({ queryKey: ['ops', 'batches'], queryFn: ({ signal }) => api.voucherBatches(undefined, signal) });
  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_vouchers()}</h1>
      <MintForm />
      <section className={css.section} aria-labelledby="ops-batches">
        <h2 id="ops-batches" className={css.sectionTitle}>{m.ops_batches()}</h2>
        {batches.isPending && <Loading />}
        {batches.isError && <ReadFailed error={batches.error} onRetry={() => void batches.refetch()} />}
        {batches.data && batches.data.batches.length === 0 && <Empty>{m.ops_no_batches()}</Empty>}
        {batches.data && batches.data.batches.length > 0 && (
          <Table caption={m.ops_batches_caption()} head={[m.ops_col_partner(), m.ops_col_plan(), m.ops_col_days(), m.ops_col_codes_used(), m.ops_col_expires(), m.ops_col_status()]}>
            {batches.data.batches.map((batch) => (
              <tr key={batch.id}>
                <td><Link href={batchPath(batch.id)}>{batch.partner}</Link></td>
                <td>{batch.planName}</td>
                <td>{batch.days}</td>
                <td>{m.ops_used_of({ used: String(batch.used), count: String(batch.count) })}</td>
                <td>{batch.expiresOn}</td>
                <td>{batch.disabledAt ? <span className={css.badge.warn}>{m.ops_disabled()}</span> : <span className={css.badge.ok}>{m.ops_active()}</span>}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  );
}

function readBatch(event: FormEvent<HTMLFormElement>): VoucherBatchValues {
  const data = new FormData(event.currentTarget);
  const text = (name: string) => String(data.get(name) ?? '');
  return {
    partner: text('partner'), count: text('count'), days: text('days'), planId: text('planId'), expiresOn: text('expiresOn'),
    limitKind: text('limitKind') === 'limit' ? 'limit' : 'account', useLimit: text('useLimit'), reason: text('reason'),
  };
}

function MintForm() {
  const { api } = useOps();
  const viewerApi = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const plans = useQuery({ queryKey: ['ops', 'plans'], queryFn: ({ signal }) => viewerApi.getPlans(signal) });
  const [actors] = useState(() => ({
    mintBatch: fromPromise<{ id: string }, VoucherBatchRequest>(({ input, signal }) => api.createVoucherBatch(input, signal)),
  }));
  const actor = useFlow(voucherBatchMachine, {
    input: { today: manilaToday() },
    actors,
    actions: {
      goToBatch: (_, { id }) => {
        void queryClient.invalidateQueries({ queryKey: ['ops', 'batches'] });
        navigate(batchPath(id));
      },
    },
  });
  const view = useConnect(actor, connectVoucherBatch);
  const [limitKind, setLimitKind] = useState(view.values.limitKind);
  const errors = view.fieldErrors;
  return (
    <section className={css.section} aria-labelledby="ops-mint">
      <h2 id="ops-mint" className={css.sectionTitle}>{m.ops_mint_title()}</h2>
      <form noValidate aria-label={m.ops_mint_title()} onSubmit={(event) => { event.preventDefault(); view.onSubmit(readBatch(event)); }}>
        <fieldset className={fieldset} disabled={view.minting}>
          <div className={css.grid2}>
            <TextField label={m.ops_partner_label()} name="partner" defaultValue={view.values.partner} maxLength={100} error={errors.partner} autoComplete="off" />
            <TextField label={m.ops_count_label()} name="count" inputMode="numeric" defaultValue={view.values.count} error={errors.count} autoComplete="off" />
            <TextField label={m.ops_voucher_days_label()} name="days" inputMode="numeric" defaultValue={view.values.days} error={errors.days} autoComplete="off" />
            <div className={field}>
              <label htmlFor="ops-plan" className={labelClass}>{m.ops_col_plan()}</label>
              <select id="ops-plan" name="planId" className={input} defaultValue={view.values.planId} aria-invalid={errors.planId ? true : undefined} aria-describedby={errors.planId ? 'ops-plan-error' : undefined}>
                <option value="">{m.ops_choose_plan()}</option>
                {plans.data?.map((plan) => <option key={plan.id} value={plan.id}>{plan.name}</option>)}
              </select>
              {errors.planId && <p id="ops-plan-error" className={fieldErrorClass}>{errors.planId}</p>}
            </div>
            <TextField label={m.ops_expires_label()} name="expiresOn" type="date" min={manilaToday()} defaultValue={view.values.expiresOn} error={errors.expiresOn} />
            <fieldset className={fieldset}>
              <legend className={labelClass}>{m.ops_limit_legend()}</legend>
              <label><input type="radio" name="limitKind" value="account" checked={limitKind === 'account'} onChange={() => setLimitKind('account')} /> {m.ops_one_per_account()}</label>
              <label><input type="radio" name="limitKind" value="limit" checked={limitKind === 'limit'} onChange={() => setLimitKind('limit')} /> {m.ops_use_limit()}</label>
              {limitKind === 'limit' && <TextField label={m.ops_use_limit_label()} name="useLimit" inputMode="numeric" defaultValue={view.values.useLimit} error={errors.useLimit} autoComplete="off" />}
            </fieldset>
          </div>
          <div className={field}>
            <label htmlFor="ops-mint-reason" className={labelClass}>{m.ops_reason_label()}</label>
            <textarea id="ops-mint-reason" name="reason" className={css.textarea} defaultValue={view.values.reason} maxLength={500} aria-invalid={errors.reason ? true : undefined} aria-describedby={errors.reason ? 'ops-mint-reason-error' : undefined} />
            {errors.reason && <p id="ops-mint-reason-error" className={fieldErrorClass}>{errors.reason}</p>}
          </div>
          <ErrorBox message={view.serverMessage} />
          <div><button type="submit" className={button.primary} aria-busy={view.minting}>{view.minting ? m.ops_minting() : m.ops_mint()}</button></div>
        </fieldset>
      </form>
    </section>
  );
}

export function BatchPage({ batchId }: { batchId: string }) {
  const { api } = useOps();
  const detail = useQuery({ queryKey: ['ops', 'batch', batchId], queryFn: ({ signal }) => api.voucherBatch({ batchId }, signal) });
  const action = useOpsAction();
  const csv = useMutation({ mutationFn: () => api.voucherBatchCsv({ batchId }), onSuccess: (blob) => saveLater(blob, `vouchers-${batchId}.csv`) });
  useOpsTitle(detail.data ? detail.data.batch.partner : m.ops_batch());
  if (detail.isPending) return <div className={css.stack}><h1 className={heading}>{m.ops_batch()}</h1><Loading /></div>;
  if (detail.isError) return <div className={css.stack}><h1 className={heading}>{m.ops_batch()}</h1><ReadFailed error={detail.error} onRetry={() => void detail.refetch()} /></div>;
  const { batch, codes, redemptions } = detail.data;
  return (
    <div className={css.stack}>
      <div className={css.pageHead}>
        <h1 className={heading}>{m.ops_batch_title({ partner: batch.partner })}</h1>
        <p className={css.small}>
          {batch.planName} · {m.ops_days_count({ days: String(batch.days) })} · {m.ops_expires_on({ date: batch.expiresOn })} ·{' '}
          {batch.perAccount ? m.ops_one_per_account() : m.ops_use_limit_of({ limit: String(batch.useLimit ?? 1) })} ·{' '}
          {m.ops_used_of({ used: String(batch.used), count: String(batch.count) })} · {m.ops_made_by({ email: batch.createdBy, date: formatDate(batch.createdAt) })}
        </p>
        {batch.disabledAt && <p><span className={css.badge.warn}>{m.ops_disabled_on({ date: when(batch.disabledAt) })}</span></p>}
      </div>
      <div className={css.row}>
        <button type="button" className={button.primary} onClick={() => csv.mutate()} disabled={csv.isPending}>{m.ops_download_csv()}</button>
        {!batch.disabledAt && (
          <button type="button" className={button.danger} onClick={() => action.onChoose({ kind: 'disableBatch', id: batch.id, email: batch.partner })}>{m.ops_disable_batch()}</button>
        )}
      </div>
      {csv.isError && <ErrorBox message={csv.error.message} />}
      {isOpenFor(action, 'disableBatch', batch.id) && <ActionPanel view={action} />}
      <section className={css.section} aria-labelledby="ops-codes">
        <h2 id="ops-codes" className={css.sectionTitle}>{m.ops_codes()}</h2>
        <Table caption={codes.length === 1 ? m.ops_codes_caption_one() : m.ops_codes_caption({ count: String(codes.length) })} head={[m.ops_col_code(), m.ops_col_redemptions(), m.ops_col_status(), m.ops_col_action()]}>
          {codes.map((code) => (
            <tr key={code.code}>
              <td className={css.mono}>{code.code}</td>
              <td>{code.redemptions}</td>
              <td>{code.disabledAt || batch.disabledAt ? <span className={css.badge.warn}>{m.ops_disabled()}</span> : <span className={css.badge.ok}>{m.ops_active()}</span>}</td>
              <td>
                {!code.disabledAt && !batch.disabledAt && (
                  <button type="button" className={css.linkButton} onClick={() => action.onChoose({ kind: 'disableCode', id: code.code, email: batch.partner })}>{m.ops_disable_code()}</button>
                )}
                {isOpenFor(action, 'disableCode', code.code) && <ActionPanel view={action} />}
              </td>
            </tr>
          ))}
        </Table>
      </section>
      <section className={css.section} aria-labelledby="ops-redemptions">
        <h2 id="ops-redemptions" className={css.sectionTitle}>{m.ops_redemptions()}</h2>
        {redemptions.length === 0 ? <Empty>{m.ops_no_redemptions()}</Empty> : (
          <Table caption={m.ops_redemptions_caption()} head={[m.ops_col_code(), m.ops_col_viewer(), m.ops_col_when()]}>
            {redemptions.map((row) => (
              <tr key={`${row.code}-${row.userId}`}><td className={css.mono}>{row.code}</td><td><Link href={viewerPath(row.userId)}>{row.email}</Link></td><td>{when(row.redeemedAt)}</td></tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  );
}
