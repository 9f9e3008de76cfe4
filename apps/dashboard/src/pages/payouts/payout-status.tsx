import type { DashboardComponents } from '@paysign/contracts';

type PayoutStatus = DashboardComponents['schemas']['PayoutStatus'];
type BatchStatus = DashboardComponents['schemas']['PayoutBatchStatus'];

export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['PENDING_APPROVAL', 'BATCHED', 'QUEUED', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'CANCELLED', 'REVERSED'];

/** The badge's colour class of each status: done well, done badly, or still moving. */
const TONE: Record<PayoutStatus | BatchStatus, string> = {
  PENDING_APPROVAL: 'pending',
  BATCHED: 'pending',
  QUEUED: 'pending',
  PROCESSING: 'pending',
  OPEN: 'pending',
  SUBMITTED: 'pending',
  SUCCESSFUL: 'active',
  COMPLETED: 'active',
  FAILED: 'failed',
  CANCELLED: 'failed',
  REVERSED: 'failed',
};

/** A payout's or batch's status, as words with a colour that only repeats them. */
export function StatusBadge({ status }: { status: PayoutStatus | BatchStatus }) {
  return <span className={`badge ${TONE[status]}`}>{status.replaceAll('_', ' ').toLowerCase()}</span>;
}
