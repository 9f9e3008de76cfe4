import type { DashboardComponents } from '@paysign/contracts';

type Schemas = DashboardComponents['schemas'];

/** The badge class of a status: the stylesheet's green, red and amber. */
const TONE: Record<string, string> = { SUCCESSFUL: 'delivered', FAILED: 'failed', ABANDONED: 'expired', CANCELLED: 'revoked', PENDING: 'pending', PROCESSING: 'pending', REQUIRES_ACTION: 'failing' };

/** A payin's or refund's status, as a badge. */
export function StatusBadge({ status }: { status: Schemas['PayinStatus'] | Schemas['RefundStatus'] }) {
  return <span className={`badge ${TONE[status] ?? ''}`}>{status}</span>;
}

/** The words of a channel; none means any the provider offers. */
export const CHANNEL_NAMES: Record<Schemas['PayinChannel'], string> = { card: 'Card', bank_transfer: 'Bank transfer', ussd: 'USSD' };
export const channelName = (channel: Schemas['PayinChannel'] | null) => (channel ? CHANNEL_NAMES[channel] : 'Any');
