/** A labelled input with its error message announced and linked for screen readers. */
import { useEffect, useId, useRef, type InputHTMLAttributes, type RefObject } from 'react';
import { field, fieldError, input, label as labelClass } from '../../styles/ui.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  name: string;
  error?: string | undefined;
  /**
   * An error that arrives later (the server's answer) takes focus to the field when focus was lost
   * meanwhile (the form was disabled while the call ran) or is still on the form's button, so the
   * keyboard and screen reader are where the problem is.
   */
  focusOnLateError?: boolean;
}

function useFocusOnLateError(ref: RefObject<HTMLInputElement | null>, error: string | undefined, on: boolean) {
  useEffect(() => {
    if (!on || !error) return;
    // Focus lost (the body), or still on this form (its submit button): not if the person moved on elsewhere.
    const active = document.activeElement;
    if (!active || active === document.body || ref.current?.form?.contains(active)) ref.current?.focus();
  }, [ref, error, on]);
}

/** After a submit, the first field of the form that is invalid takes focus. */
function useFocusOnFailedSubmit(ref: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    // Field errors are set by the flow while the submit event is handled; look once React has rendered.
    const onSubmit = () => setTimeout(() => {
      const first = form.querySelector<HTMLInputElement>('[aria-invalid="true"]');
      if (first && first === ref.current && document.activeElement !== first) first.focus();
    });
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [ref]);
}

export function TextField({ label, error, name, focusOnLateError = false, ...rest }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const ref = useRef<HTMLInputElement>(null);
  useFocusOnFailedSubmit(ref);
  useFocusOnLateError(ref, error, focusOnLateError);
  return (
    <div className={field}>
      <label htmlFor={id} className={labelClass}>{label}</label>
      <input
        ref={ref}
        id={id}
        name={name}
        className={input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...rest}
      />
      {error && <p id={errorId} className={fieldError}>{error}</p>}
    </div>
  );
}
