/** Small pieces every back office page shares: its title, a failed read, dates. */
import { useEffect, type ReactNode } from 'react';
import { m } from '../../i18n';
import { formatDateTime } from '../../lib/dates';
import { PRODUCT_NAME } from '../../lib/product';
import { button } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import * as css from './ops.css';
import { useLocation } from 'wouter';

/** The document title of a console page (the route table's title is the 404's, so a viewer gets no hint). */
export function useOpsTitle(title: string) {
  const [path] = useLocation();
  useEffect(() => {
    // After the route change's own effect (a parent's effects run after its children's, in the same
    // flush), which writes the route table's title: the 404's, so a viewer on /ops gets no hint.
    let live = true;
    queueMicrotask(() => {
      if (live) document.title = `${title} · ${PRODUCT_NAME}`;
    });
    return () => { live = false; };
  }, [title, path]);
}

/** A read that failed: its message, announced, and Try again. */
export function ReadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const message = error instanceof Error && error.message ? error.message : m.something_went_wrong();
  return (
    <div className={css.row}>
      <ErrorBox message={message} />
      <button type="button" className={button.secondary} onClick={onRetry}>{m.try_again()}</button>
    </div>
  );
}

export function Loading() {
  return <p role="status">{m.loading()}</p>;
}

export const when = (value: string | null | undefined) => (value ? formatDateTime(value) : '—');

/** A table with its caption (screen readers name tables by it). */
export function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    // A wide table scrolls sideways inside its frame, which a keyboard can reach (axe: scrollable-region-focusable).
    <div className={css.tableWrap} tabIndex={0} role="group" aria-label={caption}>
      <table className={css.table}>
        <caption>{caption}</caption>
        <thead><tr>{head.map((label) => <th key={label} scope="col">{label}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className={css.small}>{children}</p>;
}
