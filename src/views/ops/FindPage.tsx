/** Find a viewer (issue 35): by email, name, payment reference, Maya payment id, card last 4 or voucher code. */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { SearchResult } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { button, heading } from '../../styles/ui.css';
import { TextField } from '../parts/TextField';
import { viewerPath } from './opsPaths';
import * as css from './ops.css';
import { useOps } from './opsContext';
import { Empty, Loading, ReadFailed, Table, useOpsTitle } from './parts';

const MATCHED_BY: Record<SearchResult['matchedBy'], () => string> = {
  email: m.ops_matched_email, name: m.ops_matched_name, reference: m.ops_matched_reference,
  mayaPaymentId: m.ops_matched_maya_id, cardLast4: m.ops_matched_card, voucher: m.ops_matched_voucher,
};

export function FindPage() {
  const q = new URLSearchParams(useSearch()).get('q')?.trim() ?? '';
  // A new address (Back to an earlier search) shows its own words in the box.
  return <Find key={q} q={q} />;
}

function Find({ q }: { q: string }) {
  useOpsTitle(m.ops_find_viewer());
  const { api } = useOps();
  const [, navigate] = useLocation();
  const [typed, setTyped] = useState(q);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const results = useQuery({
    queryKey: ['ops', 'search', q],
    queryFn: ({ signal }) => api.search({ q }, signal),
    enabled: q.length >= 2,
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = typed.trim();
    if (text.length < 2 || text.length > 200) {
      setFieldError(m.ops_search_length());
      return;
    }
    setFieldError(undefined);
    if (text === q) void results.refetch();
    else navigate(`/ops/find?q=${encodeURIComponent(text)}`);
  }

  return (
    <div className={css.stack}>
      <h1 className={heading}>{m.ops_find_viewer()}</h1>
      <form className={css.searchForm} role="search" noValidate onSubmit={onSubmit} aria-label={m.ops_find_viewer()}>
        <TextField
          label={m.ops_search_label()} name="q" type="search" value={typed} maxLength={200} autoComplete="off" spellCheck={false}
          onChange={(event) => setTyped(event.currentTarget.value)} error={fieldError}
        />
        <button type="submit" className={button.primary}>{m.ops_search()}</button>
      </form>
      <p className={css.small}>{m.ops_search_hint()}</p>
      {q.length >= 2 && (
        <section className={css.section} aria-labelledby="ops-results-title">
          <h2 id="ops-results-title" className={css.sectionTitle}>{m.ops_results()}</h2>
          {results.isPending && <Loading />}
          {results.isError && <ReadFailed error={results.error} onRetry={() => void results.refetch()} />}
          {results.data && results.data.results.length === 0 && <Empty>{m.ops_no_results({ q })}</Empty>}
          {results.data && results.data.results.length > 0 && (
            <Table caption={results.data.results.length === 1 ? m.ops_results_caption_one({ q }) : m.ops_results_caption({ q, count: String(results.data.results.length) })} head={[m.ops_col_viewer(), m.ops_col_email(), m.ops_col_matched_by(), m.ops_col_status()]}>
              {results.data.results.map((result) => (
                <tr key={result.userId}>
                  <td><Link href={viewerPath(result.userId)}>{result.name || result.email}</Link></td>
                  <td className={css.mono}>{result.email}</td>
                  <td>{MATCHED_BY[result.matchedBy]()}</td>
                  <td>{result.status}</td>
                </tr>
              ))}
            </Table>
          )}
        </section>
      )}
    </div>
  );
}
