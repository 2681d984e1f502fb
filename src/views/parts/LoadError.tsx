import { m } from '../../i18n';
import { button } from '../../styles/ui.css';
import { ErrorBox } from './ErrorBox';

/** A read that failed: the server's message as an alert and "Try again", which reads again. */
export function LoadError({ error, retry, className }: { error: Error | null; retry: () => unknown; className?: string }) {
  if (!error) return null;
  return (
    <div className={className}>
      <ErrorBox message={error.message} />
      <button type="button" className={button.secondary} onClick={() => void retry()}>{m.try_again()}</button>
    </div>
  );
}
