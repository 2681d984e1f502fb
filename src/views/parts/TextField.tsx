/** A labelled input with its error message announced and linked for screen readers. */
import { useId, type InputHTMLAttributes } from 'react';
import { field, fieldError, input, label as labelClass } from '../../styles/ui.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  name: string;
  error?: string | undefined;
}

export function TextField({ label, error, name, ...rest }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={field}>
      <label htmlFor={id} className={labelClass}>{label}</label>
      <input
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
