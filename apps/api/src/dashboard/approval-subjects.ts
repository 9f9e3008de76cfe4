import { Injectable } from '@nestjs/common';
import type { SqlQueryable } from '../db/sql-client';
import { ApiException } from '../errors/api.exception';
import { PayoutBatchesService } from '../payouts/payout-batches.service';
import { decidedAlready, PayoutsService } from '../payouts/payouts.service';
import type { StoredBatch } from '../payouts/payout-batch-store';
import type { StoredPayout } from '../payouts/payout-rows';
import { batchBinding, payoutBinding, type ApprovalBinding } from './approval-binding';

/** Something waiting for a member's approval: what it binds, which key made it, and how it is approved. */
export interface ApprovalSubject {
  binding: ApprovalBinding;
  createdAt: Date;
  createdBy: string;
  /** Approves it; `alsoInTransaction` (the security log line) commits with the approval or not at all. */
  approve(approver: { decidedBy: string; ownKeys: readonly string[]; alsoInTransaction: (tx: SqlQueryable) => Promise<void> }): Promise<{ status: string }>;
  /** Rejects it with `note`: a payout is cancelled, a batch with every payout in it; `alsoInTransaction` commits with it. */
  reject(rejecter: { decidedBy: string; note: string; alsoInTransaction: (tx: SqlQueryable) => Promise<void> }): Promise<{ status: string }>;
}

const REFERENCE = /^[A-Za-z0-9._-]{1,64}$/;
/** The most of each kind the approvals page lists at once. */
const APPROVALS_PAGE = 100;
/** A batch's payouts still to be sent: what its submission sends, and so what its approval binds. */
const WAITING = new Set(['PENDING_APPROVAL', 'BATCHED']);

/**
 * What members approve: a payout outside a batch waiting for approval, and
 * an open batch holding one, which is approved by submitting it with the
 * count and total the approver was shown.
 */
const needsApproval = (batch: StoredBatch): boolean => !batch.building && batch.byStatus.some((s) => s.status === 'PENDING_APPROVAL' && s.count > 0);

@Injectable()
export class ApprovalSubjects {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly batches: PayoutBatchesService,
  ) {}

  /** Everything waiting for approval, oldest first. */
  async waiting(merchantId: string): Promise<ApprovalSubject[]> {
    const [payouts, batches] = await Promise.all([this.payouts.list({ merchantId, status: 'PENDING_APPROVAL', limit: APPROVALS_PAGE }), this.batches.list({ merchantId, status: 'OPEN', limit: APPROVALS_PAGE })]);
    return [
      ...payouts.filter((p) => p.batchReference === null && p.purpose === 'payout').map((p) => this.ofPayout(p)),
      ...batches.filter(needsApproval).map((b) => this.ofBatch(b)),
    ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** The payout or batch `reference` of the merchant, waiting for approval; anything else is not found, or a conflict that says why. */
  async find(merchantId: string, kind: string, reference: string): Promise<ApprovalSubject> {
    if ((kind !== 'payout' && kind !== 'batch') || !REFERENCE.test(reference)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: kind === 'payout' || kind === 'batch' ? kind : 'approval kind', id: reference.slice(0, 64) });
    const notFound = (code: string) => (error: unknown) => {
      if (error instanceof ApiException && error.code === code) throw new ApiException('DASHBOARD_NOT_FOUND', { what: kind, id: reference });
      throw error;
    };
    if (kind === 'batch') {
      const batch = await this.batches.find({ merchantId, reference }).catch(notFound('PAYOUT_BATCH_NOT_FOUND'));
      if (batch.status !== 'OPEN') throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} is ${batch.status}, not waiting for approval.` });
      // A batch with no payout needing approval is its creator's to submit when it is complete, not an approver's.
      if (batch.building) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} is still taking the rows of its file: approve it when they are all in.` });
      if (!needsApproval(batch)) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout batch ${reference} holds no payout that needs approval: its creator submits it when it is complete.` });
      return this.ofBatch(batch);
    }
    const payout = await this.payouts.get({ merchantId, reference }).catch(notFound('PAYOUT_NOT_FOUND'));
    if (payout.batchReference !== null) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout ${reference} belongs to batch ${payout.batchReference}: approve the batch.` });
    if (payout.status !== 'PENDING_APPROVAL') throw decidedAlready(payout);
    return this.ofPayout(payout);
  }

  private ofPayout(payout: StoredPayout): ApprovalSubject {
    return {
      binding: payoutBinding(payout),
      createdAt: payout.createdAt,
      createdBy: payout.createdBy ?? '',
      approve: async (approver) => this.payouts.approveAsMember(payout.merchantId, payout.reference, approver),
      reject: async (rejecter) => this.payouts.rejectAsMember(payout.merchantId, payout.reference, rejecter),
    };
  }

  private ofBatch(batch: StoredBatch): ApprovalSubject {
    const waiting = batch.byStatus.filter((s) => WAITING.has(s.status));
    const count = waiting.reduce((sum, s) => sum + s.count, 0);
    const totalMinor = waiting.reduce((sum, s) => sum + s.amountMinor, 0n);
    return {
      binding: batchBinding({ reference: batch.reference, title: batch.title, count, totalMinor }),
      createdAt: batch.createdAt,
      createdBy: batch.createdBy,
      approve: async (approver) => this.batches.submitAsMember(batch.merchantId, batch.reference, { count, totalMinor }, approver),
      reject: async ({ decidedBy, note, alsoInTransaction }) => this.batches.cancelFor(batch.merchantId, batch.reference, { rejection: { by: decidedBy, note }, alsoInTransaction }),
    };
  }
}
