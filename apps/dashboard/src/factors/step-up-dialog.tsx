import { Dialog } from '../components/dialog';
import { useSession } from '../session/use-session';
import type { Session } from '../session/session-types';
import { SecondFactorForm } from './second-factor-form';

interface StepUpDialogProps {
  onGiven: (session: Session) => void;
  onCancel: () => void;
}

/** Asks for a second factor again before an operation that needs a fresh one; the operation is then sent again. */
export function StepUpDialog({ onGiven, onCancel }: StepUpDialogProps) {
  const session = useSession();
  return (
    <Dialog title="Confirm it's you" onClose={onCancel}>
      <p>This action needs a second factor given in the last few minutes. Confirm with a passkey or a code to continue.</p>
      <SecondFactorForm factors={session.factors} onGiven={onGiven} />
      <div className="actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
