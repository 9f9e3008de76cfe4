import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FakeSettlement, FakeTransaction, FakeTransfer, Faults, RouteName } from './fake-model';

// The list calls over a time range that reconciliation reads: List Transactions
// (https://paystack.com/docs/api/transaction/#list), List Transfers
// (https://paystack.com/docs/api/transfer/#list) and List Settlements
// (https://paystack.com/docs/api/settlement/#list); List Refunds is the refunds
// route of index.ts. Each takes `from` and `to` (ISO 8601 times; the docs do not
// say whether `to` is inclusive: the fake includes it), `perPage` (default 50)
// and `page`, and answers newest first with the offset `meta` of the
// documented examples (fixtures/transaction-list.200.json and the others;
// the transactions example shows a cursor `meta`, which the fake does not give).
// Their items are the fake's own records, as verify answers them, changed
// only by `faults.listings`.

export interface ListRouteDeps {
  api: (route: RouteName, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  faults: Faults;
  transactions: Map<string, FakeTransaction>;
  transfers: Map<string, FakeTransfer>;
  settlements: FakeSettlement[];
  transactionData(transaction: FakeTransaction): Record<string, unknown>;
  transferData(transfer: FakeTransfer): Record<string, unknown>;
}

/** Whether `createdAt` is within the query's `from` and `to`, each optional. */
export function inRange(createdAt: string, query: { from?: string; to?: string }): boolean {
  const at = Date.parse(createdAt);
  return (query.from === undefined || at >= Date.parse(query.from)) && (query.to === undefined || at <= Date.parse(query.to));
}

/** One page of `items`, newest first, with the documented offset `meta`. */
function page(reply: FastifyReply, message: string, query: Record<string, string | undefined>, items: Array<{ createdAt: string; data: Record<string, unknown> }>): FastifyReply {
  const perPage = positive(query.perPage) ?? 50;
  const pageNumber = positive(query.page) ?? 1;
  const all = items.filter((item) => inRange(item.createdAt, query)).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const data = all.slice((pageNumber - 1) * perPage, pageNumber * perPage).map((item) => item.data);
  return reply.send({ status: true, message, data, meta: { total: all.length, skipped: (pageNumber - 1) * perPage, perPage, page: pageNumber, pageCount: Math.max(1, Math.ceil(all.length / perPage)) } });
}

export function registerListRoutes(app: FastifyInstance, deps: ListRouteDeps): void {
  const { api, faults, transactions, transfers, settlements } = deps;
  const query = (request: FastifyRequest) => request.query as Record<string, string | undefined>;
  const amountOf = (reference: string, amount: number) => amount + (faults.listings.amountDeltas.get(reference) ?? 0);

  app.get(
    '/transaction',
    api('transaction_list', async (request, reply) => {
      const own = [...transactions.values()].map((transaction) => {
        const data = deps.transactionData(transaction);
        const delta = faults.listings.amountDeltas.get(transaction.reference) ?? 0;
        return { createdAt: transaction.createdAt, data: { ...data, amount: (data.amount as number) + delta, requested_amount: (data.requested_amount as number) + delta } };
      });
      const extra = faults.listings.extraTransactions.map((made, index) => {
        const createdAt = made.createdAt ?? new Date().toISOString();
        const amount = amountOf(made.reference, made.amount);
        const data = { id: 900_000 + index, domain: 'test', status: 'success', reference: made.reference, amount, requested_amount: amount, message: null, gateway_response: 'Successful', paid_at: createdAt, created_at: createdAt, createdAt, channel: 'card', currency: made.currency ?? 'NGN' };
        return { createdAt, data };
      });
      return page(reply, 'Transactions retrieved', query(request), [...own, ...extra]);
    }),
  );

  app.get(
    '/transfer',
    api('transfer_list', async (request, reply) => {
      const items = [...transfers.values()].map((transfer) => {
        const data = deps.transferData(transfer);
        const status = faults.listings.reversedTransfers.has(transfer.reference) ? 'reversed' : data.status;
        return { createdAt: transfer.createdAt, data: { ...data, status, amount: amountOf(transfer.reference, transfer.amount) } };
      });
      return page(reply, 'Transfers retrieved', query(request), items);
    }),
  );

  app.get(
    '/settlement',
    api('settlement_list', async (request, reply) => {
      const items = settlements.map((settlement) => ({
        createdAt: settlement.createdAt,
        data: {
          id: settlement.id,
          domain: 'test',
          status: settlement.status,
          currency: settlement.currency,
          integration: 100032,
          total_amount: settlement.totalAmount,
          effective_amount: settlement.totalAmount,
          total_fees: settlement.totalFees,
          total_processed: settlement.totalAmount + settlement.totalFees,
          deductions: null,
          settlement_date: settlement.settlementDate,
          settled_by: null,
          createdAt: settlement.createdAt,
          updatedAt: settlement.createdAt,
        },
      }));
      return page(reply, 'Settlements retrieved', query(request), items);
    }),
  );
}

function positive(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : undefined;
}
