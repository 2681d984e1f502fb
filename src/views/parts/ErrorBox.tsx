import { useEffect, useRef } from 'react';
import { errorBox } from '../../styles/ui.css';
import { focusFromScript } from '../focusFromScript';

/**
 * The error box of product.md#errors: the server's message, announced as an alert. A new message takes
 * focus, so after a failed submit the keyboard and screen reader are where the problem is.
 */
export function ErrorBox({ message }: { message: string | null | undefined }) {
  const box = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message && box.current) focusFromScript(box.current);
  }, [message]);
  if (!message) return null;
  return <p ref={box} role="alert" tabIndex={-1} className={errorBox}>{message}</p>;
}
