/**
 * Auto-renewal told and agreed (product.md#renewal-consent): the sentence ('Renews automatically on … at …
 * until you cancel. Cancel anytime on Subscription.') and the viewer's tick. The pay or confirm button
 * stays enabled; pressed without the tick, the flow says so here: the box is marked invalid, described by
 * the message, and takes the focus (again on every press).
 */
import { useEffect, useId, useRef } from 'react';
import { m } from '../../i18n';
import * as css from './renewalConsent.css';

export interface RenewalConsentProps {
  text: string;
  checked: boolean;
  /** Pressed without the tick: the error shows and the box is focused. */
  missing: boolean;
  /** Grows with every press without the tick, so each one brings the focus back. */
  prompts: number;
  disabled?: boolean;
  onToggle: (checked: boolean) => void;
}

export function RenewalConsent({ text, checked, missing, prompts, disabled, onToggle }: RenewalConsentProps) {
  const id = useId();
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (missing) box.current?.focus();
  }, [missing, prompts]);
  return (
    <div className={css.consent}>
      <p id={`${id}-terms`} className={css.terms}>{text}</p>
      <label className={css.tick}>
        <input
          ref={box}
          type="checkbox"
          className={missing ? `${css.box} ${css.missing}` : css.box}
          checked={checked}
          disabled={disabled}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${id}-error ${id}-terms` : `${id}-terms`}
          onChange={(event) => onToggle(event.currentTarget.checked)}
        />
        {m.i_agree_to_automatic_renewal()}
      </label>
      {missing && <p id={`${id}-error`} className={css.error}>{m.please_agree_to_automatic_renewal()}</p>}
    </div>
  );
}
