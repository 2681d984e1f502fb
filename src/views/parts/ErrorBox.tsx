import { errorBox } from '../../styles/ui.css';

/** The error box of spec §8: the server's message, announced as an alert. */
export function ErrorBox({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return <p role="alert" className={errorBox}>{message}</p>;
}
