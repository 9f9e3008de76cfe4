import { useId, type ReactNode } from 'react';
import { CopyButton } from './copy-button';
import { Dialog } from './dialog';

interface SecretDialogProps {
  title: string;
  /** The label of the secret's field, e.g. "Secret key". */
  label: string;
  secret: string;
  onClose: () => void;
  children?: ReactNode;
}

/** A secret the service shows this once: readable, copyable, with the warning that it will not be shown again. */
export function SecretDialog({ title, label, secret, onClose, children }: SecretDialogProps) {
  const fieldId = useId();
  return (
    <Dialog title={title} onClose={onClose}>
      <p className="warning">
        <strong>This is the only time it is shown.</strong> Copy it now and keep it in your secrets manager; afterwards only its
        fingerprint is visible.
      </p>
      {children}
      <div className="field">
        <label htmlFor={fieldId}>{label}</label>
        <input id={fieldId} className="secret" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
      </div>
      <div className="actions">
        <CopyButton value={secret} label={`Copy ${label.toLowerCase()}`} />
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
