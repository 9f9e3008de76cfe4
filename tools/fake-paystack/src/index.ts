import { createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

// A local stand-in for the parts of Paystack's API the adapters call
// (apps/api/src/providers/paystack), for tests. Each route names the public page it
// follows; where the page is silent, the comment says what the fake assumes.
// It also serves a payment page a browser can pay on, sends signed webhooks,
// and takes faults: timeouts, 5xx, duplicate and out-of-order webhooks,
// another amount reported, and transfers that stay pending.

/** How a transfer to an account turns out at the fake. */
export type AccountBehaviour =
  | { kind: 'success' }
  | { kind: 'failed'; reason: string }
  /** Pending until verified `verifications` times, then successful. */
  | { kind: 'pending-then-success'; verifications: number }
  /** Successful, then reversed once verified `verifications` times. */
  | { kind: 'reversed-after'; verifications: number };

export interface FakeAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  behaviour?: AccountBehaviour;
}

export interface FakeTransfer {
  reference: string;
  transferCode: string;
  recipientCode: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  failureText: string | null;
  verifications: number;
}

export interface FakeTransaction {
  reference: string;
  accessCode: string;
  amount: number;
  currency: string;
  email: string;
  channels: string[];
  callbackUrl: string | null;
  status: 'abandoned' | 'success' | 'failed';
  gatewayResponse: string;
  paidAt: string | null;
}

/** The faults a test can ask for; each applies to the calls named, and counts down. */
export interface Faults {
  /** The next `count` API calls (of `route`, or any) answer 500. */
  serverErrors: { count: number; route?: RouteName };
  /** The next `count` calls of a route are handled, then their answer never comes: the client's timeout ends each. */
  hangAfterHandling: Map<RouteName, number>;
  /** Verify Transaction reports the amount plus this many kobo. */
  reportedAmountDelta: number;
  /** Each webhook is sent twice. */
  duplicateWebhooks: boolean;
  /** When the payment page sends the charge.success webhook: before sending the customer back (and waiting for the answer), after, or never. */
  webhookTiming: 'before-return' | 'after-return' | 'never';
}

export type RouteName = 'bank_resolve' | 'transferrecipient' | 'transfer' | 'transfer_verify' | 'transaction_initialize' | 'transaction_verify';

export interface FakePaystack {
  url: string;
  secretKey: string;
  accounts: Map<string, FakeAccount>;
  recipients: Map<string, { recipientCode: string; bankCode: string; accountNumber: string; name: string }>;
  transfers: Map<string, FakeTransfer>;
  transactions: Map<string, FakeTransaction>;
  /** Every API call, by route name, in order. */
  calls: RouteName[];
  faults: Faults;
  /** Where webhooks are sent; set once the service under test listens. */
  webhookUrl: string | undefined;
  addAccount(account: FakeAccount): void;
  /** Sends an event as Paystack does, signed over the exact bytes sent; resolves the receiver's status. */
  sendWebhook(event: string, data: Record<string, unknown>, options?: { secretKey?: string }): Promise<number>;
  /** The body of a transaction's or a transfer's webhook, as the fake sends it. */
  transactionEvent(reference: string): Record<string, unknown>;
  transferEvent(reference: string): Record<string, unknown>;
  close(): Promise<void>;
}

const ok = (reply: FastifyReply, status: number, message: string, data: unknown) => reply.status(status).send({ status: true, message, data });
const refuse = (reply: FastifyReply, status: number, message: string, extra: Record<string, unknown> = {}) => reply.status(status).send({ status: false, message, ...extra });

export async function startFakePaystack(options: { secretKey?: string } = {}): Promise<FakePaystack> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(20).toString('hex')}`;
  const app: FastifyInstance = Fastify({ logger: false });
  const faults: Faults = { serverErrors: { count: 0 }, hangAfterHandling: new Map(), reportedAmountDelta: 0, duplicateWebhooks: false, webhookTiming: 'before-return' };
  const accounts = new Map<string, FakeAccount>();
  const recipients = new Map<string, { recipientCode: string; bankCode: string; accountNumber: string; name: string }>();
  const transfers = new Map<string, FakeTransfer>();
  const transactions = new Map<string, FakeTransaction>();
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
  // A reference used before: the docs give no answer for single transfers; the fake refuses it with 400, as
  // integrators report, and makes no second transfer.
  app.post(
    '/transfer',
    api('transfer', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.source !== 'balance' || !Number.isSafeInteger(body.amount) || (body.amount as number) <= 0 || typeof body.recipient !== 'string') {
        return refuse(reply, 400, 'Invalid Amount Sent', { type: 'validation_error', code: 'invalid_params' });
      }
      if (typeof body.reference !== 'string' || !/^[a-z0-9_-]{16,50}$/.test(body.reference)) return refuse(reply, 400, 'Your reference contains illegal special characters');
      if (transfers.has(body.reference)) return refuse(reply, 400, 'Transfer reference already exists');
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

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };

  function byAccessCode(accessCode: string): FakeTransaction | undefined {
    return [...transactions.values()].find((transaction) => transaction.accessCode === accessCode);
  }

  function accountOfRecipient(recipientCode: string): FakeAccount | undefined {
    const recipient = [...recipients.values()].find((r) => r.recipientCode === recipientCode);
    return recipient && accounts.get(accountKey(recipient.bankCode, recipient.accountNumber));
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
      gateway_response: transfer.failureText,
      recipient: { recipient_code: transfer.recipientCode },
      session: { provider: 'nip', id: null },
    };
  }

  function transactionData(transaction: FakeTransaction): Record<string, unknown> {
    return {
      id: nextId++,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount + faults.reportedAmountDelta,
      message: null,
      gateway_response: transaction.gatewayResponse,
      paid_at: transaction.paidAt,
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
    calls,
    faults,
    webhookUrl: undefined,
    addAccount(account) {
      accounts.set(accountKey(account.bankCode, account.accountNumber), account);
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
    transferEvent(reference) {
      const transfer = transfers.get(reference);
      if (!transfer) throw new Error(`fake paystack: no transfer ${reference}`);
      return transferData(transfer);
    },
    close: () => app.close(),
  };
  return fake;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
