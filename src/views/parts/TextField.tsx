/** A labelled input with its error message announced and linked for screen readers. */
import { useEffect, useId, useRef, type InputHTMLAttributes, type RefObject } from 'react';
import { field, fieldError, input, label as labelClass } from '../../styles/ui.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  name: string;
  error?: string | undefined;
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

export function TextField({ label, error, name, ...rest }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const ref = useRef<HTMLInputElement>(null);
  useFocusOnFailedSubmit(ref);
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
