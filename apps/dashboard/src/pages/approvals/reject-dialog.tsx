import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { useApi } from '../../api/api-context';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { APPROVALS_KEY } from './approvals-page';

type PendingApproval = DashboardComponents['schemas']['PendingApproval'];

/** Rejects one payout or batch with a reason, which the payout (or each of the batch's) keeps and its maker reads. */
export function RejectDialog({ approval, onClose }: { approval: PendingApproval; onClose: () => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const ids = { reason: useId(), hint: useId() };
  const reject = useMutation({
    mutationFn: () => call(() => client.POST('/approvals/{kind}/{reference}/reject', { params: { path: { kind: approval.kind, reference: approval.reference } }, body: { reason: reason.trim() } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: APPROVALS_KEY }),
  });

  return (
    <Dialog title={`Reject ${approval.kind} ${approval.reference}`} onClose={onClose}>
      <p>
        <Money amount={approval.amount} currency={approval.currency} /> to {approval.destination}. Rejecting it cancels {approval.kind === 'batch' ? 'the batch and every payout in it' : 'the payout'} and releases the money held for it.
      </p>
      {reject.data ? (
        <p role="status">
          Rejected: {reject.data.kind} {reject.data.reference} is {reject.data.status}.
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            reject.mutate();
          }}
        >
          <div className="field">
            <label htmlFor={ids.reason}>Reason</label>
            <textarea id={ids.reason} required maxLength={200} aria-describedby={ids.hint} value={reason} onChange={(event) => setReason(event.target.value)} />
            <p id={ids.hint} className="hint">
              Shown to whoever made it, such as &ldquo;Not on the November payroll&rdquo;.
            </p>
          </div>
          <ErrorAlert error={reject.error} />
          <button type="submit" className="button danger" disabled={reject.isPending || reason.trim() === ''}>
            Reject
          </button>
        </form>
      )}
      <div className="actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {reject.data ? 'Close' : 'Cancel'}
        </button>
      </div>
    </Dialog>
  );
}
