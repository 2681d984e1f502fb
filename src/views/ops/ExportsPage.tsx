/** Finance exports (issue 35): payments, refunds and voucher redemptions for a Manila date range, as CSV. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { EXPORT_KINDS, type ExportKind } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { button, heading } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { TextField } from '../parts/TextField';
import { addDays, manilaToday } from './manila';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { useOpsTitle } from './parts';

/** The download code comes when a file is saved (it is shared by pages that would otherwise list it in the landing's preload map). */
const saveLater = (blob: Blob, name: string) => void import('../saveFile').then(({ saveFile }) => saveFile(blob, name));

const KIND_NAMES: Record<ExportKind, () => string> = { payments: m.ops_export_payments, refunds: m.ops_export_refunds, redemptions: m.ops_export_redemptions };

/** The range's problem, if any: both dates, from before to, at most 366 days. */
export function rangeError(from: string, to: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return m.ops_range_dates();
  if (from > to || addDays(from, 366) < to) return m.ops_range_length();
  return undefined;
}

export function ExportsPage() {
  useOpsTitle(m.ops_exports());
  const { api } = useOps();
  const today = manilaToday();
  const [range, setRange] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  const [error, setError] = useState<string | undefined>();
  const download = useMutation({
    mutationFn: (kind: ExportKind) => api.exportCsv({ kind, from: range.from, to: range.to }),
    onSuccess: (blob, kind) => saveLater(blob, `${kind}-${range.from}-${range.to}.csv`),
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const kind = (submitter?.value ?? 'payments') as ExportKind;
    const problem = rangeError(range.from, range.to);
    setError(problem);
    if (!problem) download.mutate(kind);
  }
  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_exports()}</h1>
      <p>{m.ops_exports_intro()}</p>
      <form className={css.formSection} noValidate onSubmit={onSubmit} aria-label={m.ops_exports()}>
        <div className={css.grid2}>
          <TextField label={m.ops_from_label()} name="from" type="date" value={range.from} onChange={(e) => setRange({ ...range, from: e.currentTarget.value })} error={error} />
          <TextField label={m.ops_to_label()} name="to" type="date" value={range.to} onChange={(e) => setRange({ ...range, to: e.currentTarget.value })} />
        </div>
        <div className={css.row}>
          {EXPORT_KINDS.map((kind) => (
            <button key={kind} type="submit" name="kind" value={kind} className={button.secondary} disabled={download.isPending}>
              {m.ops_download_kind({ kind: KIND_NAMES[kind]() })}
            </button>
          ))}
        </div>
        {download.isError && <ErrorBox message={download.error.message} />}
        {download.isSuccess && <p role="status">{m.ops_downloaded()}</p>}
      </form>
    </div>
  );
}
