/** The toast area (product.md#toasts as the app configures it): top-right, close button, 4000 ms, at most 3. */
import { ToastContainer, type CloseButtonProps } from 'react-toastify';
import { m } from '../i18n';
import './toasts.css';

export const TOAST_DURATION_MS = 4000;
export const TOAST_LIMIT = 3;

/** react-toastify's own close button, with its name in the language in use (the library's says 'close'). */
function CloseButton({ closeToast, theme }: CloseButtonProps) {
  return (
    <button
      type="button" className={`Toastify__close-button Toastify__close-button--${theme}`} aria-label={m.close()}
      onClick={(event) => { event.stopPropagation(); closeToast(true); }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path fillRule="evenodd" d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z" />
      </svg>
    </button>
  );
}

export default function ToastArea() {
  return (
    <ToastContainer
      position="top-right" autoClose={TOAST_DURATION_MS} limit={TOAST_LIMIT} closeButton={CloseButton} newestOnTop theme="colored"
      aria-label={m.notifications_alt_t()}
    />
  );
}
