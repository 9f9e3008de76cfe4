import type { CreatePayoutRequest, Payout, PayoutBatch, SubmitPayoutBatchRequest } from '@paysign/contracts';
import { PaymentError } from './errors';

/** One payout of a batch: a payout create without `batchReference`, which the builder adds. */
export type BatchItem = Omit<CreatePayoutRequest, 'batchReference'>;

export interface CreateBatchWithItemsInput {
  reference: string;
  title: string;
  items: readonly BatchItem[];
  /** Items added at once. Default 8. */
  concurrency?: number;
  /** Attempts per item when its create fails with a retryable error, beyond the client's own retries. Default 3. */
  attemptsPerItem?: number;
  /** Submit the batch once every item is in it, with their count and total. Leave false when approval is on: another credential submits it. */
  submit?: boolean;
}

export interface CreateBatchWithItemsResult {
  /** The batch as it is at the end: OPEN, or SUBMITTED when `submit` was asked and every item was added. */
  batch: PayoutBatch;
  /** What to submit the batch with: the count and total of the items given. */
  expected: SubmitPayoutBatchRequest;
  /** The items that could not be added, with why; the batch is not submitted while there is one. */
  failures: Array<{ reference: string; error: PaymentError }>;
}

/** The calls the builder makes, as the client's namespaces give them. */
export interface BatchCalls {
  createBatch: (input: { reference: string; title: string }) => Promise<PayoutBatch>;
  createPayout: (input: CreatePayoutRequest) => Promise<Payout>;
  submitBatch: (reference: string, input: SubmitPayoutBatchRequest) => Promise<PayoutBatch>;
  getBatch: (reference: string) => Promise<PayoutBatch>;
}

/**
 * Opens a batch (or finds it again: creation is idempotent by reference),
 * adds every item with bounded concurrency, retrying an item whose create
 * failed in a way that may succeed later (safe, since a payout's reference
 * is its idempotency key), and, when asked and nothing failed, submits it
 * with the count and total of the items, so that the service refuses it if
 * anything is missing or extra.
 */
export async function createBatchWithItems(calls: BatchCalls, input: CreateBatchWithItemsInput): Promise<CreateBatchWithItemsResult> {
  const concurrency = Math.max(1, Math.floor(input.concurrency ?? 8));
  const attempts = Math.max(1, Math.floor(input.attemptsPerItem ?? 3));
  await calls.createBatch({ reference: input.reference, title: input.title });
  const failures: CreateBatchWithItemsResult['failures'] = [];
  let next = 0;
  const worker = async () => {
    while (next < input.items.length) {
      const item = input.items[next++] as BatchItem;
      for (let attempt = 1; ; attempt++) {
        try {
          await calls.createPayout({ ...item, batchReference: input.reference });
          break;
        } catch (error) {
          // Anything but the service's answer (or its absence) is a bug, not an item that failed.
          if (!(error instanceof PaymentError)) throw error;
          if (error.retryable && attempt < attempts) continue;
          failures.push({ reference: item.reference, error });
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, input.items.length) }, worker));
  // In kobo, so that the total is exact whatever the amounts' binary form.
  const totalKobo = input.items.reduce((sum, item) => sum + Math.round(item.amount * 100), 0);
  const expected = { expectedCount: input.items.length, expectedTotal: totalKobo / 100 };
  const batch = input.submit && failures.length === 0 && input.items.length > 0 ? await calls.submitBatch(input.reference, expected) : await calls.getBatch(input.reference);
  return { batch, expected, failures };
}
