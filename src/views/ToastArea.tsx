/** The toast area (product.md#toasts as the app configures it): top-right, close button, 4000 ms, at most 3. */
import { ToastContainer } from 'react-toastify';
import './toasts.css';

export const TOAST_DURATION_MS = 4000;
export const TOAST_LIMIT = 3;

export default function ToastArea() {
  return <ToastContainer position="top-right" autoClose={TOAST_DURATION_MS} limit={TOAST_LIMIT} closeButton newestOnTop theme="colored" />;
}
