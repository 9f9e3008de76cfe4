import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { ErrorAlert } from './error-alert';

interface ConfirmDialogProps {
  title: string;
  /** The confirming button's text, e.g. "Revoke key". */
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy: boolean;
  error: unknown;
  children: ReactNode;
}

/** Asks before something that cannot be undone; the cancel button has focus first. */
export function ConfirmDialog({ title, confirmLabel, onConfirm, onClose, busy, error, children }: ConfirmDialogProps) {
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorAlert error={error} />
      <div className="actions">
        <button type="button" className="button secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
