import { useId, useState, type ReactNode } from 'react';
import { ErrorAlert } from '../components/error-alert';

interface TotpCodeFormProps {
  /** The form's class, which places it among the factors around it. */
  className: string;
  /** The code field's label. */
  label: string;
  /** A line under the field that describes it; default: none. */
  hint?: string;
  /** The submit button's text. */
  submitLabel: string;
  /** True while the code is being checked: the button is disabled. */
  busy: boolean;
  /** The failed check's error, shown under the button. */
  error: unknown;
  /** Called with the code typed, trimmed. */
  onSubmit: (code: string) => void;
  /** What the form shows above the field; default: nothing. */
  children?: ReactNode;
}

/** A form asking for the 6-digit code an authenticator app shows. */
export function TotpCodeForm({ className, label, hint, submitLabel, busy, error, onSubmit, children }: TotpCodeFormProps) {
  const codeId = useId();
  const hintId = useId();
  const [code, setCode] = useState('');
  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(code);
      }}
    >
      {children}
      <div className="field">
        <label htmlFor={codeId}>{label}</label>
        <input
          id={codeId}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          aria-describedby={hint ? hintId : undefined}
          value={code}
          onChange={(event) => setCode(event.target.value.trim())}
        />
        {hint ? (
          <p id={hintId} className="hint">
            {hint}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={busy}>
        {submitLabel}
      </button>
      <ErrorAlert error={error} />
    </form>
  );
}
