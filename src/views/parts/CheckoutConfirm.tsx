/**
 * The confirmation product.md#checkout-confirmation asks for when Checkout is picked: in the page, as an
 * alertdialog with the spec's exact words, not the browser's confirm() (which a webview may block, so the
 * choice silently did nothing). It opens on the safe choice (Cancel: the method chosen before stays).
 */
import { useEffect, useId, useRef } from 'react';
import { m } from '../../i18n';
import { button } from '../../styles/ui.css';
import * as css from '../pages/subscribe.css';

export function CheckoutConfirm({ question, onConfirm, onDecline, returnFocus }: {
  question: string;
  onConfirm: () => void;
  onDecline: () => void;
  /** Where focus goes once it closes (the option now chosen), so it does not fall to the page. */
  returnFocus: () => HTMLElement | null | undefined;
}) {
  const id = useId();
  // The first returnFocus is kept: it reads the option checked when it runs, after the question closed.
  const back = useRef(returnFocus);
  useEffect(() => {
    const target = back.current;
    return () => { requestAnimationFrame(() => target()?.focus()); };
  }, []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-t`}
      aria-describedby={`${id}-q`}
      className={css.question}
      onKeyDown={(event) => { if (event.key === 'Escape') { event.stopPropagation(); onDecline(); } }}
    >
      <p id={`${id}-t`}><strong>{m.pay_by_checkout()}</strong></p>
      <p id={`${id}-q`}>{question}</p>
      <div className={css.actions}>
        <button type="button" className={button.secondary} onClick={onDecline} autoFocus>{m.cancel()}</button>
        <button type="button" className={button.primary} onClick={onConfirm}>{m.yes_i_m_sure()}</button>
      </div>
    </div>
  );
}
