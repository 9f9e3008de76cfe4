import { createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FakeAccount, FakeTransfer, FakeTransaction, FakeRefund, FakeBank, FakeSettlement, Faults, RouteName, FakePaystack } from './fake-model';
import { inRange, registerListRoutes } from './list-routes';

export type { AccountBehaviour, FakeAccount, FakeTransfer, FakeTransaction, FakeRefundStatus, FakeRefund, FakeBank, FakeSettlement, Faults, ListingDisagreements, RouteName, FakePaystack } from './fake-model';

// A local stand-in for the parts of Paystack's API the adapters call
// (apps/api/src/providers/paystack), for tests. Each route names the public page it
// follows; where the page is silent, the comment says what the fake assumes.
// It also serves a payment page a browser can pay on, sends signed webhooks,
// and takes faults: timeouts, a slow bank, 5xx, duplicate and out-of-order webhooks,
// another amount reported or charged, and transfers that stay pending. Refunds stay in
// the status they are made in until a test settles them (settleRefund),
// which also sends their webhook, as Paystack does.

const ok = (reply: FastifyReply, status: number, message: string, data: unknown) => reply.status(status).send({ status: true, message, data });
const refuse = (reply: FastifyReply, status: number, message: string, extra: Record<string, unknown> = {}) => reply.status(status).send({ status: false, message, ...extra });

export async function startFakePaystack(options: { secretKey?: string; now?: () => Date } = {}): Promise<FakePaystack> {
  /** When the fake takes a record: its `createdAt`, which the list calls filter on. */
  const now = options.now ?? (() => new Date());
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(20).toString('hex')}`;
  const app: FastifyInstance = Fastify({ logger: false });
  const faults: Faults = {
    serverErrors: { count: 0 },
    hangAfterHandling: new Map(),
    slowBanks: new Set(),
    reportedAmountDelta: 0,
    chargedAmountDelta: 0,
    duplicateWebhooks: false,
    webhookTiming: 'before-return',
    refundStatusAtCreate: 'pending',
    refundNotesReplaced: false,
    listings: { extraTransactions: [], reversedTransfers: new Set(), amountDeltas: new Map() },
  };
  const settlements: FakeSettlement[] = [];
  const accounts = new Map<string, FakeAccount>();
  const recipients = new Map<string, { recipientCode: string; bankCode: string; accountNumber: string; name: string }>();
  const transfers = new Map<string, FakeTransfer>();
  const transactions = new Map<string, FakeTransaction>();
  const refunds = new Map<number, FakeRefund>();
  const banks = new Map<string, FakeBank>(SEED_BANKS.map((bank) => [bank.code, { ...bank }]));
  const calls: RouteName[] = [];
  let nextId = 1000;
  const accountKey = (bankCode: string, accountNumber: string) => `${bankCode}:${accountNumber}`;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));

  /** Bearer auth and the faults, before every API route (https://paystack.com/docs/api/#authentication). */
  const api =
    (route: RouteName, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      calls.push(route);
      if (request.headers.authorization !== `Bearer ${fake.secretKey}`) return refuse(reply, 401, 'Invalid key');
      if (faults.serverErrors.count > 0 && (faults.serverErrors.route === undefined || faults.serverErrors.route === route)) {
        faults.serverErrors.count--;
        return refuse(reply, 500, 'An error occurred');
      }
      const hangs = faults.hangAfterHandling.get(route) ?? 0;
      if (hangs === 0) return handler(request, reply);
      faults.hangAfterHandling.set(route, hangs - 1);
      // The work is done, and its answer is lost on the way: nothing is sent, and the caller's timeout ends the wait.
      const closed = new Promise<void>((resolve) => reply.raw.once('close', resolve));
      const unsent = Object.create(reply, { send: { value: () => unsent }, status: { value: () => unsent } }) as FastifyReply;
      await handler(request, unsent);
      await closed;
      return reply;
    };

  // https://paystack.com/docs/api/verification/#resolve-account. An account the bank does not have:
  // the docs give 404 "Entity not found" for the operation; the 422 below is what integrators report
  // Paystack answering, and the adapter takes both as not found.
  app.get(
    '/bank/resolve',
    api('bank_resolve', async (request, reply) => {
      const { account_number: accountNumber, bank_code: bankCode } = request.query as Record<string, string | undefined>;
      if (!accountNumber || !bankCode) return refuse(reply, 400, 'Account number and bank code are required');
      if (faults.slowBanks.has(bankCode)) {
        await new Promise<void>((resolve) => reply.raw.once('close', resolve));
        return reply;
      }
      if (!/^[0-9]{10}$/.test(accountNumber)) return refuse(reply, 422, 'Account number must be 10 digits');
      const account = accounts.get(accountKey(bankCode, accountNumber));
      if (!account) return refuse(reply, 422, 'Could not resolve account name. Check parameters or try again.');
      return ok(reply, 200, 'Account number resolved', { account_number: accountNumber, account_name: account.accountName, bank_id: 9 });
    }),
  );

  // https://paystack.com/docs/api/transfer-recipient/#create: "A duplicate account number will lead to the retrieval of the existing record."
  app.post(
    '/transferrecipient',
    api('transferrecipient', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.type !== 'nuban' || typeof body.name !== 'string' || typeof body.account_number !== 'string' || typeof body.bank_code !== 'string') {
        return refuse(reply, 400, 'Type, name, account number and bank code are required', { type: 'validation_error', code: 'missing_params' });
      }
      const key = accountKey(body.bank_code, body.account_number);
      const account = accounts.get(key);
      if (!account) return refuse(reply, 422, 'Could not resolve account name. Check parameters or try again.');
      const existing = recipients.get(key) ?? { recipientCode: `RCP_${randomBytes(8).toString('hex')}`, bankCode: body.bank_code, accountNumber: body.account_number, name: body.name };
      recipients.set(key, existing);
      return ok(reply, 201, 'Transfer recipient created successfully', {
        active: true,
        currency: 'NGN',
        domain: 'test',
        id: nextId++,
        name: existing.name,
        recipient_code: existing.recipientCode,
        type: 'nuban',
        details: { authorization_code: null, account_number: existing.accountNumber, account_name: account.accountName, bank_code: existing.bankCode, bank_name: 'Fake Bank' },
      });
    }),
  );

  // https://paystack.com/docs/api/transfer/#initiate and https://paystack.com/docs/transfers/single-transfers/:
  // the reference is lower case, digits, - and _, 16 to 50 characters, and is the transfer's idempotency key.
  // A reference used before is refused with Paystack's documented duplicate_transfer_reference
  // (https://paystack.com/docs/api/errors/transfer/; fixtures/transfer-initiate.duplicate.400.json), and no second transfer is made.
  app.post(
    '/transfer',
    api('transfer', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.source !== 'balance' || !Number.isSafeInteger(body.amount) || (body.amount as number) <= 0 || typeof body.recipient !== 'string') {
        return refuse(reply, 400, 'Invalid Amount Sent', { type: 'validation_error', code: 'invalid_params' });
      }
      if (typeof body.reference !== 'string' || !/^[a-z0-9_-]{16,50}$/.test(body.reference)) return refuse(reply, 400, 'Your reference contains illegal special characters');
      if (transfers.has(body.reference)) return reply.status(400).send(DUPLICATE_TRANSFER_REFERENCE);
      const recipient = [...recipients.values()].find((r) => r.recipientCode === body.recipient);
      if (!recipient) return refuse(reply, 400, 'Recipient specified is invalid', { type: 'validation_error', code: 'invalid_transfer_recipient' });
      const behaviour = accounts.get(accountKey(recipient.bankCode, recipient.accountNumber))?.behaviour ?? { kind: 'success' };
      const transfer: FakeTransfer = {
        reference: body.reference,
        transferCode: `TRF_${randomBytes(8).toString('hex')}`,
        recipientCode: recipient.recipientCode,
        amount: body.amount as number,
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        reason: typeof body.reason === 'string' ? body.reason : '',
        status: behaviour.kind === 'failed' ? 'failed' : behaviour.kind === 'pending-then-success' ? 'pending' : 'success',
        failureText: behaviour.kind === 'failed' ? behaviour.reason : null,
        verifications: 0,
        createdAt: now().toISOString(),
      };
      transfers.set(transfer.reference, transfer);
      return ok(reply, 200, 'Transfer has been queued', transferData(transfer));
    }),
  );

  // https://paystack.com/docs/api/transfer/#verify: 404 "Transfer not found" for a reference it has none of.
  app.get(
    '/transfer/verify/:reference',
    api('transfer_verify', async (request, reply) => {
      const transfer = transfers.get((request.params as { reference: string }).reference);
      if (!transfer) return refuse(reply, 404, 'Transfer not found');
      transfer.verifications++;
      const behaviour = accountOfRecipient(transfer.recipientCode)?.behaviour;
      if (behaviour?.kind === 'pending-then-success' && transfer.verifications >= behaviour.verifications) transfer.status = 'success';
      if (behaviour?.kind === 'reversed-after' && transfer.verifications >= behaviour.verifications) transfer.status = 'reversed';
      return ok(reply, 200, 'Transfer retrieved', transferData(transfer));
    }),
  );

  // https://paystack.com/docs/api/transaction/#initialize: amount in kobo (a string in the docs' examples),
  // reference of letters, digits, - . and =; a reference used before is 400 "Duplicate Transaction Reference".
  app.post(
    '/transaction/initialize',
    api('transaction_initialize', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const amount = typeof body.amount === 'string' && /^[1-9][0-9]*$/.test(body.amount) ? Number(body.amount) : Number.isSafeInteger(body.amount) ? (body.amount as number) : NaN;
      if (typeof body.email !== 'string' || !body.email.includes('@')) return refuse(reply, 400, 'Invalid Email Address Passed', { type: 'validation_error', code: 'invalid_params' });
      if (!(amount > 0)) return refuse(reply, 400, 'You must specify a valid amount', { type: 'validation_error', code: 'invalid_params' });
      if (typeof body.reference !== 'string' || !/^[A-Za-z0-9.=-]{1,100}$/.test(body.reference)) return refuse(reply, 400, 'Invalid character in transaction reference');
      if (transactions.has(body.reference)) {
        return refuse(reply, 400, 'Duplicate Transaction Reference', { meta: { nextStep: 'Try and create the Transaction or Charge with a new reference' }, type: 'validation_error', code: 'duplicate_reference' });
      }
      const accessCode = randomBytes(8).toString('hex');
      transactions.set(body.reference, {
        id: nextId++,
        reference: body.reference,
        accessCode,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        email: body.email,
        channels: Array.isArray(body.channels) ? (body.channels as string[]) : ['card'],
        callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : null,
        status: 'abandoned',
        gatewayResponse: 'The transaction was not completed',
        paidAt: null,
        createdAt: now().toISOString(),
      });
      return ok(reply, 200, 'Authorization URL created', { authorization_url: `${fake.url}/checkout/${accessCode}`, access_code: accessCode, reference: body.reference });
    }),
  );

  // https://paystack.com/docs/api/transaction/#verify and https://paystack.com/docs/payments/verify-payments/.
  // An unknown reference: the docs give the message "Transaction reference not found", not the status; the fake answers 404.
  app.get(
    '/transaction/verify/:reference',
    api('transaction_verify', async (request, reply) => {
      const transaction = transactions.get((request.params as { reference: string }).reference);
      if (!transaction) return refuse(reply, 404, 'Transaction reference not found');
      return ok(reply, 200, 'Verification successful', transactionData(transaction));
    }),
  );

  // https://paystack.com/docs/api/miscellaneous/#bank: Nigeria's banks with their ids and codes, newest first.
  // With use_cursor, `meta.next` is the cursor of the next page (base64 of `bank:<id>`, as in the documented
  // example) and null on the last; without it, `page` and `perPage`. Other filters are ignored.
  app.get(
    '/bank',
    api('bank_list', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const perPage = positiveInteger(query.perPage) ?? 50;
      const all = [...banks.values()].sort((a, b) => b.id - a.id);
      if (query.use_cursor === 'true') {
        const after = query.next ? Number(/^bank:([0-9]+)$/.exec(Buffer.from(query.next, 'base64').toString('utf8'))?.[1] ?? NaN) : Infinity;
        if (Number.isNaN(after)) return refuse(reply, 400, 'Invalid cursor');
        const page = all.filter((bank) => bank.id < after).slice(0, perPage);
        const more = page.length > 0 && all.some((bank) => bank.id < (page.at(-1) as FakeBank).id);
        return reply.send({ status: true, message: 'Banks retrieved', data: page.map(bankData), meta: { next: more ? Buffer.from(`bank:${(page.at(-1) as FakeBank).id}`).toString('base64') : null, previous: null, perPage } });
      }
      const page = positiveInteger(query.page) ?? 1;
      return reply.send({ status: true, message: 'Banks retrieved', data: all.slice((page - 1) * perPage, page * perPage).map(bankData) });
    }),
  );

  // https://paystack.com/docs/payments/refunds/: `transaction` is the transaction's reference or id; without
  // `amount`, the whole of it. Where the docs are silent the fake assumes: a transaction it has no success of,
  // an amount above what is left unrefunded (failed refunds give theirs back), or another currency than the
  // transaction's, is refused 400 `validation_error`, and no refund is made. Paystack takes no idempotency
  // key: every accepted call makes a refund.
  app.post(
    '/refund',
    api('refund_create', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const transaction = typeof body.transaction === 'string' || typeof body.transaction === 'number' ? transactionOf(String(body.transaction)) : undefined;
      if (!transaction) return refuse(reply, 400, 'Transaction not found', { type: 'validation_error', code: 'invalid_params' });
      if (transaction.status !== 'success') return refuse(reply, 400, 'Only successful transactions can be refunded', { type: 'validation_error', code: 'invalid_params' });
      const left = transaction.amount - refundedOf(transaction.id);
      const amount = body.amount === undefined ? left : typeof body.amount === 'string' && /^[1-9][0-9]*$/.test(body.amount) ? Number(body.amount) : Number.isSafeInteger(body.amount) ? (body.amount as number) : NaN;
      if (!(amount > 0)) return refuse(reply, 400, 'Invalid amount', { type: 'validation_error', code: 'invalid_params' });
      if (amount > left) return refuse(reply, 400, 'Refund amount cannot be more than the unrefunded transaction amount', { type: 'validation_error', code: 'invalid_params' });
      if (body.currency !== undefined && body.currency !== transaction.currency) return refuse(reply, 400, 'Currency does not match the transaction', { type: 'validation_error', code: 'invalid_params' });
      const byDefault = `Refund for transaction ${transaction.reference} by merchant@example.com`;
      const refund: FakeRefund = {
        id: nextId++,
        transactionId: transaction.id,
        transactionReference: transaction.reference,
        amount,
        currency: transaction.currency,
        status: faults.refundStatusAtCreate,
        customerNote: typeof body.customer_note === 'string' ? body.customer_note : `Refund for transaction ${transaction.reference}`,
        merchantNote: typeof body.merchant_note === 'string' && !faults.refundNotesReplaced ? body.merchant_note : byDefault,
        account: null,
        createdAt: now().toISOString(),
      };
      refunds.set(refund.id, refund);
      // The create answer embeds the transaction, where list, fetch and retry answers give its id.
      return ok(reply, 200, 'Refund has been queued for processing', {
        ...refundData(refund),
        transaction: { id: transaction.id, domain: 'test', reference: transaction.reference, amount: transaction.amount, paid_at: transaction.paidAt, channel: 'card', currency: transaction.currency },
        deducted_amount: 0,
        channel: null,
        fully_deducted: false,
      });
    }),
  );

  // The refunds guide's List Refunds, newest first. Paystack's OpenAPI description names `perPage` (default
  // 50), `page`, `from` and `to`; its SDKs add `transaction`, the transaction's id, which the fake filters on:
  // a value that is no transaction id matches nothing.
  app.get(
    '/refund',
    api('refund_list', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const perPage = positiveInteger(query.perPage) ?? 50;
      const page = positiveInteger(query.page) ?? 1;
      const all = [...refunds.values()]
        .filter((refund) => query.transaction === undefined || String(refund.transactionId) === query.transaction)
        .filter((refund) => query.currency === undefined || refund.currency === query.currency)
        .filter((refund) => inRange(refund.createdAt, query))
        .sort((a, b) => b.id - a.id);
      const data = all.slice((page - 1) * perPage, page * perPage).map(refundData);
      return reply.send({ status: true, message: 'Refunds retrieved', data, meta: { total: all.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) } });
    }),
  );

  // Fetch Refund, by Paystack's refund id. A refund it has none of: the docs give no example; the fake answers 404.
  app.get(
    '/refund/:id',
    api('refund_fetch', async (request, reply) => {
      const refund = refunds.get(Number((request.params as { id: string }).id));
      if (!refund) return refuse(reply, 404, 'Refund not found');
      return ok(reply, 200, 'Refund retrieved', refundData(refund));
    }),
  );

  // Retry Refund: a refund in `needs-attention` sent to the customer's account, `bank_id` being List Banks' id.
  // Any other state is the documented 422. The fake then holds it `processing` until a test settles it.
  app.post(
    '/refund/retry_with_customer_details/:id',
    api('refund_retry', async (request, reply) => {
      const refund = refunds.get(Number((request.params as { id: string }).id));
      if (!refund) return refuse(reply, 404, 'Refund not found');
      if (refund.status !== 'needs-attention') {
        return refuse(reply, 422, 'Invalid Refund state, refund status should be "needs-attention"', { meta: { nextStep: "Ensure that the value(s) you're passing are valid." }, type: 'validation_error', code: 'invalid_params' });
      }
      const details = ((request.body ?? {}) as { refund_account_details?: Record<string, unknown> }).refund_account_details ?? {};
      const bankId = typeof details.bank_id === 'string' && /^[0-9]+$/.test(details.bank_id) ? Number(details.bank_id) : Number.isSafeInteger(details.bank_id) ? (details.bank_id as number) : NaN;
      if (typeof details.currency !== 'string' || typeof details.account_number !== 'string' || !/^[0-9]{10}$/.test(details.account_number) || Number.isNaN(bankId)) {
        return refuse(reply, 400, 'Currency, account number and bank id are required', { type: 'validation_error', code: 'invalid_params' });
      }
      if (![...banks.values()].some((bank) => bank.id === bankId)) return refuse(reply, 400, 'Invalid bank id', { type: 'validation_error', code: 'invalid_params' });
      if (details.currency !== refund.currency) return refuse(reply, 400, 'Currency does not match the refund', { type: 'validation_error', code: 'invalid_params' });
      refund.account = { currency: details.currency, accountNumber: details.account_number, bankId };
      refund.status = 'processing';
      return ok(reply, 200, 'Refund retried and has been queued for processing', refundData(refund));
    }),
  );

  // The hosted payment page the customer is sent to (authorization_url): a form with Pay and Decline.
  app.get('/checkout/:accessCode', async (request, reply) => {
    const transaction = byAccessCode((request.params as { accessCode: string }).accessCode);
    if (!transaction) return reply.status(404).type('text/html').send('<!doctype html><title>Not found</title><p>No such payment.</p>');
    const naira = (transaction.amount / 100).toFixed(2);
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Paystack</title></head><body><main><h1>Fake Paystack</h1><p>Pay NGN ${naira} as ${escapeHtml(transaction.email)}</p>` +
          `<form method="post"><input type="hidden" name="outcome" value="success"><button type="submit">Pay NGN ${naira}</button></form>` +
          `<form method="post"><input type="hidden" name="outcome" value="declined"><button type="submit">Decline</button></form></main></body></html>`,
      );
  });

  app.post('/checkout/:accessCode', async (request, reply) => {
    const transaction = byAccessCode((request.params as { accessCode: string }).accessCode);
    if (!transaction) return reply.status(404).send('No such payment.');
    if (transaction.status === 'abandoned') {
      const paid = (request.body as Record<string, string> | undefined)?.outcome === 'success';
      transaction.status = paid ? 'success' : 'failed';
      transaction.gatewayResponse = paid ? 'Successful' : 'Insufficient Funds';
      transaction.paidAt = paid ? new Date().toISOString() : null;
      // "we currently send webhook events for just successful transactions" (https://paystack.com/docs/payments/verify-payments/).
      if (paid && faults.webhookTiming !== 'never') {
        const sending = fake.sendWebhook('charge.success', fake.transactionEvent(transaction.reference));
        if (faults.webhookTiming === 'before-return') await sending;
        else sending.catch(() => undefined);
      }
    }
    // https://paystack.com/docs/payments/accept-payments/#redirect: back to callback_url with the reference appended.
    if (!transaction.callbackUrl) return reply.type('text/html').send('<!doctype html><title>Done</title><p>Payment complete.</p>');
    const back = new URL(transaction.callbackUrl);
    back.searchParams.set('trxref', transaction.reference);
    back.searchParams.set('reference', transaction.reference);
    return reply.redirect(back.toString(), 302);
  });

  registerListRoutes(app, { api, faults, transactions, transfers, settlements, transactionData, transferData });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };

  function byAccessCode(accessCode: string): FakeTransaction | undefined {
    return [...transactions.values()].find((transaction) => transaction.accessCode === accessCode);
  }

  function accountOfRecipient(recipientCode: string): FakeAccount | undefined {
    const recipient = [...recipients.values()].find((r) => r.recipientCode === recipientCode);
    return recipient && accounts.get(accountKey(recipient.bankCode, recipient.accountNumber));
  }

  function transactionOf(referenceOrId: string): FakeTransaction | undefined {
    return transactions.get(referenceOrId) ?? [...transactions.values()].find((transaction) => String(transaction.id) === referenceOrId);
  }

  /** What the transaction's refunds hold, but for the failed ones, which Paystack credits back. */
  function refundedOf(transactionId: number): number {
    return [...refunds.values()].filter((refund) => refund.transactionId === transactionId && refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
  }

  /** A refund as list, fetch and retry answer it (their documented examples; `transaction_reference` from the OpenAPI description). */
  function refundData(refund: FakeRefund): Record<string, unknown> {
    return {
      integration: 100032,
      transaction: refund.transactionId,
      transaction_reference: refund.transactionReference,
      dispute: null,
      settlement: null,
      id: refund.id,
      domain: 'test',
      currency: refund.currency,
      amount: refund.amount,
      status: refund.status,
      refunded_at: refund.status === 'processed' ? new Date().toISOString() : null,
      expected_at: refund.createdAt,
      refunded_by: 'merchant@example.com',
      customer_note: refund.customerNote,
      merchant_note: refund.merchantNote,
      deducted_amount: refund.amount,
      fully_deducted: true,
      channel: 'card',
      bank_reference: null,
      reason: refund.status.toUpperCase(),
      customer: null,
      initiated_by: 'merchant@example.com',
      reversed_at: null,
      session_id: null,
      createdAt: refund.createdAt,
      updatedAt: refund.createdAt,
    };
  }

  function transferData(transfer: FakeTransfer): Record<string, unknown> {
    return {
      amount: transfer.amount,
      currency: transfer.currency,
      domain: 'test',
      failures: null,
      id: nextId++,
      integration: 100032,
      reason: transfer.reason,
      reference: transfer.reference,
      source: 'balance',
      source_details: null,
      status: transfer.status,
      titan_code: null,
      transfer_code: transfer.transferCode,
      transferred_at: transfer.status === 'success' ? new Date().toISOString() : null,
      createdAt: transfer.createdAt,
      updatedAt: transfer.createdAt,
      gateway_response: transfer.failureText,
      recipient: { recipient_code: transfer.recipientCode },
      session: { provider: 'nip', id: null },
    };
  }

  function transactionData(transaction: FakeTransaction): Record<string, unknown> {
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount + faults.reportedAmountDelta + faults.chargedAmountDelta,
      // The documented answer carries what the transaction was initialized for next to what was charged.
      requested_amount: transaction.amount + faults.reportedAmountDelta,
      message: null,
      gateway_response: transaction.gatewayResponse,
      paid_at: transaction.paidAt,
      created_at: transaction.createdAt,
      createdAt: transaction.createdAt,
      channel: 'card',
      currency: transaction.currency,
      customer: { email: transaction.email },
    };
  }

  const fake: FakePaystack = {
    url: `http://127.0.0.1:${address.port}`,
    secretKey,
    accounts,
    recipients,
    transfers,
    transactions,
    refunds,
    settlements,
    banks,
    calls,
    faults,
    webhookUrl: undefined,
    addAccount(account) {
      accounts.set(accountKey(account.bankCode, account.accountNumber), account);
    },
    addPaidTransaction({ reference, amount, currency = 'NGN', email = 'customer@example.com', createdAt = now().toISOString() }) {
      const transaction: FakeTransaction = {
        id: nextId++,
        reference,
        accessCode: randomBytes(8).toString('hex'),
        amount,
        currency,
        email,
        channels: ['card'],
        callbackUrl: null,
        status: 'success',
        gatewayResponse: 'Successful',
        paidAt: createdAt,
        createdAt,
      };
      transactions.set(reference, transaction);
      return transaction;
    },
    async settleRefund(id, status) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`fake paystack: no refund ${id}`);
      refund.status = status;
      if (!fake.webhookUrl || faults.webhookTiming === 'never') return undefined;
      return fake.sendWebhook(`refund.${status}`, fake.refundEvent(id));
    },
    // https://paystack.com/docs/payments/webhooks/: `x-paystack-signature` is the HMAC-SHA512, in hex, of the body under the secret key.
    async sendWebhook(event, data, sendOptions = {}) {
      if (!fake.webhookUrl) throw new Error('fake paystack: no webhookUrl to send to');
      const body = JSON.stringify({ event, data });
      const signature = createHmac('sha512', sendOptions.secretKey ?? fake.secretKey).update(body).digest('hex');
      let status = 0;
      for (let copy = 0; copy < (faults.duplicateWebhooks ? 2 : 1); copy++) {
        const response = await fetch(fake.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body });
        status = response.status;
        await response.arrayBuffer();
      }
      return status;
    },
    transactionEvent(reference) {
      const transaction = transactions.get(reference);
      if (!transaction) throw new Error(`fake paystack: no transaction ${reference}`);
      return transactionData(transaction);
    },
    // The documented refund events: the transaction by `transaction_reference`, Paystack's own
    // `refund_reference` (null until the processor gives one), the amount as a string.
    refundEvent(id) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`fake paystack: no refund ${id}`);
      return {
        status: refund.status,
        transaction_reference: refund.transactionReference,
        refund_reference: refund.status === 'pending' ? null : `TRF_${refund.id}`,
        amount: String(refund.amount),
        currency: refund.currency,
        processor: 'instant-transfer',
        customer: { first_name: null, last_name: null, email: transactions.get(refund.transactionReference)?.email ?? null },
        integration: 100032,
        domain: 'test',
        id: String(refund.id),
        customer_note: refund.customerNote,
        merchant_note: refund.merchantNote,
      };
    },
    transferEvent(reference) {
      const transfer = transfers.get(reference);
      if (!transfer) throw new Error(`fake paystack: no transfer ${reference}`);
      return transferData(transfer);
    },
    close: () => app.close(),
  };
  return fake;
}

/** Paystack's answer to a transfer under a reference it already has: fixtures/transfer-initiate.duplicate.400.json, which a test keeps this in step with. */
export const DUPLICATE_TRANSFER_REFERENCE = {
  status: false,
  message: 'Reference already exists on a transfer',
  meta: { nextStep: 'Create a new reference for the new transfer' },
  type: 'validation_error',
  code: 'duplicate_transfer_reference',
} as const;

/** A positive integer query value, or undefined. */
function positiveInteger(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : undefined;
}

function bankData(bank: FakeBank): Record<string, unknown> {
  return { name: bank.name, slug: bank.name.toLowerCase().replaceAll(' ', '-'), code: bank.code, longcode: '', gateway: null, pay_with_bank: false, active: true, is_deleted: false, country: 'Nigeria', currency: 'NGN', type: 'nuban', id: bank.id, createdAt: '2020-11-24T10:03:06.000Z', updatedAt: '2020-11-24T10:03:06.000Z' };
}

/**
 * A few of List Banks' Nigerian banks. The ids of Coronation (173) and
 * Paycom/OPay (171) are those of the documented example; the others are the
 * fake's own, not Paystack's, and tests add any bank they need.
 */
const SEED_BANKS: readonly FakeBank[] = [
  { id: 173, code: '559', name: 'Coronation Merchant Bank' },
  { id: 171, code: '999992', name: 'Paycom' },
  { id: 1, code: '044', name: 'Access Bank' },
  { id: 7, code: '058', name: 'Guaranty Trust Bank' },
  { id: 21, code: '057', name: 'Zenith Bank' },
  { id: 9, code: '063', name: 'Access Bank (Diamond)' },
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
