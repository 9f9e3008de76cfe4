import type { SqlClient } from '../db/sql-client';
import { InsufficientBalanceError, type Ledger } from '../ledger/ledger';
import { postCorrection } from '../ledger/ledger-corrections';
import type { Actor, MerchantStore } from '../merchants/merchant-store';
import type { PayinRepository } from '../payins/payin-repository.interface';
import type { ProviderPayments } from '../payins/provider-payments';
import type { PayoutDispatcher } from '../payouts/payout-dispatcher';
import type { PayoutStore } from '../payouts/payout-store';
import type { RefundDispatcher } from '../refunds/refund-dispatcher';
import type { RefundStore } from '../refunds/refund-store';
import type { ReconciliationStore, StoredDiscrepancy } from './reconciliation-store';

/**
 * How an operator settles a discrepancy, prefering the object's own state
 * machine: `acknowledged` moves nothing; `requery` asks the object's
 * provider of record now, as its status checks do, and its answer moves it;
 * `reverse` reverses a paid payout the provider reports reversed, through
 * the payout's own reversal; `journal` posts a correction journal between
 * the merchant's `available` and the provider's settlement account, for
 * what no state machine covers. docs/reconciliation.md says which fits
 * each kind.
 */
export const CORRECTIONS = ['requery', 'reverse', 'journal'] as const;
export type CorrectionKind = (typeof CORRECTIONS)[number];

/** An operator's mistake, or a correction that does not fit the discrepancy: nothing was changed. */
export class ResolveRefusal extends Error {}

export interface ResolveParts {
  client: SqlClient;
  store: ReconciliationStore;
  ledger: Ledger;
  merchants: MerchantStore;
  payins: PayinRepository;
  providerPayments: ProviderPayments;
  payouts: PayoutStore;
  payoutDispatcher: PayoutDispatcher;
  refunds: RefundStore;
  refundDispatcher: RefundDispatcher;
  now: () => Date;
}

export interface ResolveRequest {
  id: string;
  reason: string;
  actor: Actor;
  correct?: CorrectionKind;
  /** For `journal`: minor units into the merchant's `available`, negative out of it. */
  amountMinor?: bigint;
  /** For `journal` on a record of theirs we have no object of: the merchant it belongs to. */
  merchantId?: string;
}

/** Settles one open discrepancy as the operator decided, and writes its audit line. Resolves it as now stored. */
export async function resolveDiscrepancy(parts: ResolveParts, request: ResolveRequest): Promise<StoredDiscrepancy> {
  const found = await parts.store.find(request.id);
  if (!found) throw new ResolveRefusal(`No discrepancy ${request.id}; reconcile list --open shows the open ones.`);
  if (found.status !== 'open') throw new ResolveRefusal(`Discrepancy ${request.id} was resolved already (${found.resolution} by ${found.resolvedBy}); nothing was changed.`);
  const detail: Record<string, unknown> = { discrepancy: found.id, kind: found.kind, objectType: found.objectType, reason: request.reason };
  let journalId: string | null = null;
  let resolution = 'acknowledged';
  switch (request.correct) {
    case undefined:
      await resolveOn(parts, found, { resolution, reason: request.reason, actor: request.actor, journalId: null });
      break;
    case 'requery':
    case 'reverse': {
      const before = await statusOf(parts, found);
      await (request.correct === 'requery' ? requery(parts, found) : reverse(parts, found));
      const after = await statusOf(parts, found);
      if (after === before) throw new ResolveRefusal(`${found.objectType} ${found.ourReference} is still ${after} after asking its provider of record, which answers otherwise than its listing: acknowledge it, or correct it with --correct journal, with a reason.`);
      resolution = request.correct === 'requery' ? 'requeried' : 'reversed';
      Object.assign(detail, { statusBefore: before, statusAfter: after });
      await resolveOn(parts, found, { resolution, reason: request.reason, actor: request.actor, journalId: null });
      break;
    }
    case 'journal': {
      journalId = await correctByJournal(parts, found, request);
      resolution = 'corrected';
      Object.assign(detail, { journal: journalId, amountMinor: request.amountMinor?.toString() });
      break;
    }
  }
  const merchantId = found.merchantId ?? request.merchantId;
  await parts.merchants.audit(parts.client, request.actor, 'reconciliation.resolve', { ...(merchantId ? { merchantId } : {}), subject: `discrepancy ${found.id}`, detail: { ...detail, resolution } });
  return (await parts.store.find(found.id)) as StoredDiscrepancy;
}

async function resolveOn(parts: ResolveParts, found: StoredDiscrepancy, resolution: { resolution: string; reason: string; actor: Actor; journalId: string | null }): Promise<void> {
  const resolved = await parts.store.resolve(parts.client, found.id, { ...resolution, actor: resolution.actor.actor });
  if (!resolved) throw new ResolveRefusal(`Discrepancy ${found.id} was resolved meanwhile; reconcile list shows how.`);
}

/** A correction journal and the discrepancy's resolution, in one transaction: neither without the other. */
async function correctByJournal(parts: ResolveParts, found: StoredDiscrepancy, request: ResolveRequest): Promise<string> {
  const amountMinor = request.amountMinor;
  if (amountMinor === undefined || amountMinor === 0n) throw new ResolveRefusal('--correct journal needs --amount: the naira into the merchant\'s available balance, negative out of it, never 0.');
  const merchantId = found.merchantId ?? request.merchantId;
  if (!merchantId) throw new ResolveRefusal(`Discrepancy ${found.id} names no merchant of ours (${found.kind}): --correct journal needs --merchant-id, the merchant the money is theirs.`);
  if (found.merchantId && request.merchantId && request.merchantId !== found.merchantId) throw new ResolveRefusal(`Discrepancy ${found.id} is merchant ${found.merchantId}'s; leave out --merchant-id.`);
  const currency = String(found.ours?.currency ?? found.theirs?.currency ?? '');
  const objectId = found.ourReference ?? found.theirReference ?? found.id;
  try {
    return await parts.client.transaction(async (tx) => {
      const journalId = await postCorrection(parts.ledger, tx, { merchantId, currency, objectType: found.objectType, objectId, amountMinor }, parts.now());
      if (journalId === undefined) throw new ResolveRefusal(`${found.objectType} ${objectId} of ${merchantId} has a correction journal already; one object is corrected once. Acknowledge this one with the reason.`);
      const resolved = await parts.store.resolve(tx, found.id, { resolution: 'corrected', reason: request.reason, actor: request.actor.actor, journalId });
      if (!resolved) throw new ResolveRefusal(`Discrepancy ${found.id} was resolved meanwhile; reconcile list shows how.`);
      return journalId;
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new ResolveRefusal(`${merchantId}'s available balance in ${currency} is ${error.shortMinor} kobo short of the debit: nothing was posted.`);
    throw error;
  }
}

async function statusOf(parts: ResolveParts, found: StoredDiscrepancy): Promise<string> {
  return (await objectOf(parts, found)).status;
}

async function objectOf(parts: ResolveParts, found: StoredDiscrepancy) {
  if (!found.merchantId || !found.ourReference) throw new ResolveRefusal(`Discrepancy ${found.id} (${found.kind}) has no object of ours to ask about: acknowledge it, or correct it with --correct journal.`);
  const key = { merchantId: found.merchantId, reference: found.ourReference };
  const object = found.objectType === 'payin' ? await parts.payins.find(key) : found.objectType === 'payout' ? await parts.payouts.find(key) : await parts.refunds.find(key);
  if (!object) throw new ResolveRefusal(`No ${found.objectType} ${key.reference} of ${key.merchantId} any more.`);
  return object;
}

/** The object's provider of record asked now, as its scheduled checks do. */
async function requery(parts: ResolveParts, found: StoredDiscrepancy): Promise<void> {
  const object = await objectOf(parts, found);
  if (found.objectType === 'payin') await parts.providerPayments.settle(object as NonNullable<Awaited<ReturnType<PayinRepository['find']>>>, 'schedule');
  else if (found.objectType === 'payout') await parts.payoutDispatcher.checkNow(object as NonNullable<Awaited<ReturnType<PayoutStore['find']>>>);
  else await parts.refundDispatcher.checkNow(object as NonNullable<Awaited<ReturnType<RefundStore['find']>>>);
}

/** A paid payout the provider reports reversed: reversed through its own state machine (its journal, its event). */
async function reverse(parts: ResolveParts, found: StoredDiscrepancy): Promise<void> {
  if (found.objectType !== 'payout' || found.kind !== 'status_differs' || found.theirs?.outcome !== 'reversed') {
    throw new ResolveRefusal(`--correct reverse is for a payout the provider reports reversed (status_differs, theirs reversed); discrepancy ${found.id} is a ${found.objectType} ${found.kind}.`);
  }
  const payout = await parts.payouts.find({ merchantId: found.merchantId as string, reference: found.ourReference as string });
  if (!payout || payout.status !== 'SUCCESSFUL') throw new ResolveRefusal(`payout ${found.ourReference} is ${payout?.status ?? 'gone'}: only a SUCCESSFUL payout is reversed.`);
  if (!(await parts.payoutDispatcher.apply(payout, { to: 'REVERSED', reason: 'reversed_by_beneficiary_bank' }))) throw new ResolveRefusal(`payout ${found.ourReference} moved meanwhile; run reconcile again.`);
}
