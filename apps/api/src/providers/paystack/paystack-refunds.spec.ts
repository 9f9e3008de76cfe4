// Refunds at Paystack: the adapter against the example responses of Paystack's
// own documentation (tools/fake-paystack/fixtures, sources in SOURCES.md), then
// its guarantees (one refund per reference, not_found only from a whole
// listing, the account send) against the fake provider over real HTTP.
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import pino from 'pino';
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { ServiceMetrics } from '../../metrics/service-metrics';
import { ProviderCircuits } from '../../upstream/provider-circuits';
import { ProviderUnavailable, UpstreamClient } from '../../upstream/upstream-client';
import type { RefundAnswer, RefundOrder } from '../ports/payment-refunds.port';
import { PaystackApi } from './paystack-api';
import { answerOf, carriesReference, merchantNoteOf, PaystackRefunds, type PaystackRefundIds } from './paystack-refunds';
import { PaystackWebhooks } from './paystack-webhooks';

const FIXTURES = path.resolve(__dirname, '../../../../../tools/fake-paystack/fixtures');
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const KEY = 'sk_test_documentedexamples0123456789';
const signal = () => AbortSignal.timeout(5000);
/** A direct call to Paystack's API, as made for a merchant. */
const caller = () => ({ signal: signal(), merchantId: 'MCH-A' });

function apiAt(url: string, key = KEY, timeoutMs = 2000) {
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const client = new UpstreamClient({
    provider: 'paystack',
    baseUrl: url,
    headers: { authorization: `Bearer ${key}` },
    timeoutMs,
    retries: 0,
    circuits: new ProviderCircuits({ failures: 100, openSeconds: 30, windowSeconds: 60, sources: 1, enquiryBanks: 1 }, Date.now),
    metrics: new ServiceMetrics(),
    logger,
  });
  return { api: new PaystackApi(client, key, true), logger, logs };
}

/** A server answering each `METHOD path` with a documented example. */
async function serve(answers: Record<string, [number, Record<string, unknown>]>): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    seen.push(`${request.method} ${url.pathname}${url.search}`);
    const [status, body] = answers[`${request.method} ${url.pathname}`] ?? [404, { status: false, message: 'Entity not found' }];
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

const PAYMENT = 'psi-0123456789abcdef0123456789abcdef';

describe('the refund calls on the documented example responses', () => {
  let documented: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    documented = await serve({
      'GET /refund': [200, fixture('refund-list.guide.200.json')],
      'POST /refund': [200, fixture('refund-create.200.json')],
      'POST /refund/retry_with_customer_details/1234567': [200, fixture('refund-retry.200.json')],
      'POST /refund/retry_with_customer_details/747680': [422, fixture('refund-retry.422.json')],
      'GET /bank': [200, fixture('bank-list.200.json')],
    });
  });
  afterAll(() => stop(documented.server));

  it('reads a page of refunds with its page count, and the list example without one', async () => {
    const { api } = apiAt(documented.url);
    const listed = await api.listRefunds({ transactionId: 627178582, page: 1, perPage: 100 }, caller());
    expect(documented.seen.at(-1)).toBe('GET /refund?transaction=627178582&perPage=100&page=1');
    expect(listed.pageCount).toBe(1);
    expect(listed.refunds[0]).toEqual({ id: 747680, status: 'processed', amountMinor: 10_000n, currency: 'NGN', transactionId: 627178582, transactionReference: null, merchantNote: 'Refund for transaction qufywna9w9a5d8v by jen@smith.com' });
    const reference = await serve({ 'GET /refund': [200, fixture('refund-list.200.json')] });
    try {
      expect(await apiAt(reference.url).api.listRefunds({ transactionId: 1641, page: 1, perPage: 100 }, caller())).toMatchObject({ pageCount: null, refunds: [{ id: 1, status: 'processed', amountMinor: 500_000n }, { id: 2, status: 'pending' }] });
    } finally {
      stop(reference.server);
    }
  });

  it('reads a created refund, whose transaction is embedded, and the refund a retry answers', async () => {
    const { api } = apiAt(documented.url);
    const created = await api.createRefund({ transactionReference: 'T685312322670591', amountMinor: 10_000n, currency: 'NGN', merchantNote: 'PSR-x', customerNote: null }, caller());
    expect(created).toEqual({ accepted: true, refund: { id: 3018284, status: 'pending', amountMinor: 10_000n, currency: 'NGN', transactionId: 1004723697, transactionReference: 'T685312322670591', merchantNote: 'Refund for transaction T685312322670591 by test@me.com' } });
    expect(await api.retryRefund(1234567, { currency: 'NGN', accountNumber: '1234567890', bankId: 9 }, caller())).toMatchObject({ accepted: true, refund: { id: 1234567, status: 'processing', amountMinor: 20_000n, transactionId: 3298598423 } });
    // The documented refusal of a retry of a refund not in needs-attention.
    expect(await api.retryRefund(747680, { currency: 'NGN', accountNumber: '1234567890', bankId: 9 }, caller())).toEqual({
      accepted: false,
      status: 422,
      message: 'Invalid Refund state, refund status should be "needs-attention"',
      type: 'validation_error',
      code: 'invalid_params',
    });
  });

  it('reads banks with their ids and codes, and the cursor of the next page', async () => {
    const { api } = apiAt(documented.url);
    const listed = await api.listBanks(null, caller());
    expect(documented.seen.at(-1)).toBe('GET /bank?country=nigeria&currency=NGN&use_cursor=true&perPage=100');
    expect(listed.banks.slice(0, 2)).toEqual([
      { id: 174, code: '801' },
      { id: 173, code: '559' },
    ]);
    expect(listed.next).toBe('YmFuazoxNjk=');
  });

  it('takes a list answer of another shape as no answer', async () => {
    const odd = await serve({ 'GET /refund': [200, { status: true, message: 'Refunds retrieved', data: [{ id: 'x' }] }] });
    try {
      await expect(apiAt(odd.url).api.listRefunds({ transactionId: 1, page: 1, perPage: 100 }, caller())).rejects.toBeInstanceOf(ProviderUnavailable);
    } finally {
      stop(odd.server);
    }
  });
});

describe('the refund mappings', () => {
  const order = { amountMinor: 5000n, currency: 'NGN' };
  it.each<[string, { status: string; amountMinor?: bigint; currency?: string }, RefundAnswer]>([
    ['pending is under way', { status: 'pending' }, { outcome: 'processing' }],
    ['processing is under way', { status: 'processing' }, { outcome: 'processing' }],
    ['processed is successful', { status: 'processed' }, { outcome: 'successful' }],
    ['failed is the provider failing it', { status: 'failed' }, { outcome: 'failed', reason: 'provider_error' }],
    ['needs-attention waits for an account', { status: 'needs-attention' }, { outcome: 'requires_action' }],
    ['an undocumented status is under way', { status: 'reversed' }, { outcome: 'processing' }],
    ['another amount is a mismatch', { status: 'processed', amountMinor: 4999n }, { outcome: 'mismatch', amountMinor: 4999n, currency: 'NGN' }],
    ['another currency is a mismatch', { status: 'processed', currency: 'USD' }, { outcome: 'mismatch', amountMinor: 5000n, currency: 'USD' }],
  ])('%s', (_name, given, want) => {
    expect(answerOf({ amountMinor: 5000n, currency: 'NGN', ...given }, order)).toEqual(want);
  });

  it.each<[string, { note: string; reference: string }, boolean]>([
    ['the reference alone', { note: 'PSR-0123456789abcdef0123456789abcdef', reference: 'PSR-0123456789abcdef0123456789abcdef' }, true],
    ['the reference and a note', { note: 'PSR-0123456789abcdef0123456789abcdef: goods returned', reference: 'PSR-0123456789abcdef0123456789abcdef' }, true],
    ['in another case', { note: 'psr-0123456789ABCDEF0123456789abcdef', reference: 'PSR-0123456789abcdef0123456789abcdef' }, true],
    ['a longer reference', { note: 'PSR-0123456789abcdef0123456789abcdef0', reference: 'PSR-0123456789abcdef0123456789abcdef' }, false],
    ['the reference inside', { note: 'see PSR-0123456789abcdef0123456789abcdef', reference: 'PSR-0123456789abcdef0123456789abcdef' }, false],
    ["Paystack's own note", { note: 'Refund for transaction T685312322670591 by test@me.com', reference: 'PSR-0123456789abcdef0123456789abcdef' }, false],
  ])('a merchant_note carries our reference: %s', (_name, { note, reference }, want) => {
    expect(carriesReference(note, reference)).toBe(want);
  });

  it('puts our reference at the start of merchant_note', () => {
    expect(merchantNoteOf({ providerReference: 'PSR-a', merchantNote: null })).toBe('PSR-a');
    expect(merchantNoteOf({ providerReference: 'PSR-a', merchantNote: 'goods returned' })).toBe('PSR-a: goods returned');
  });
});

describe('the refund webhooks', () => {
  const { api } = apiAt('http://127.0.0.1:1');
  const webhooks = new PaystackWebhooks(api);
  const read = (body: Record<string, unknown>, key = KEY) => {
    const raw = Buffer.from(JSON.stringify(body));
    return webhooks.read(raw, { 'x-paystack-signature': createHmac('sha512', key).update(raw).digest('hex') });
  };
  const ofPayment = (name: string, reference: string) => {
    const body = fixture(name);
    return { ...body, data: { ...(body.data as Record<string, unknown>), transaction_reference: reference } };
  };

  it.each(['refund.pending', 'refund.processing', 'refund.processed', 'refund.failed', 'refund.needs-attention'])('%s names the refunded payment by its transaction_reference', (event) => {
    const name = `webhook-${event.replace('.', '-')}.json`;
    expect(fixture(name).event).toBe(event);
    expect(read(ofPayment(name, PAYMENT))).toEqual({ object: 'refund', paymentReference: PAYMENT, event });
    // The documented examples' transactions are none of ours.
    expect(read(fixture(name))).toEqual({ object: 'none', event });
  });

  it('checks the signature first, and reads no refund from a transaction reference not of our payins', () => {
    const body = ofPayment('webhook-refund-processed.json', PAYMENT);
    expect(read(body, 'sk_test_another')).toEqual({ refused: 'signature', header: 'x-paystack-signature' });
    for (const reference of ['PSI-0123456789ABCDEF0123456789ABCDEF', 'psx-0123456789abcdef0123456789abcdef', `${PAYMENT}0`, '']) {
      expect(read(ofPayment('webhook-refund-processed.json', reference))).toEqual({ object: 'none', event: 'refund.processed' });
    }
    // A refund event carries no `reference`; charge and transfer events are read as before.
    expect(read({ event: 'refund.processed', data: { reference: PAYMENT } })).toEqual({ object: 'none', event: 'refund.processed' });
    expect(read({ event: 'charge.success', data: { reference: PAYMENT, transaction_reference: 'x' } })).toEqual({ object: 'payin', providerReference: PAYMENT, event: 'charge.success' });
  });
});

describe('refunds against the fake provider', () => {
  let fake: FakePaystack;
  let payments = 0;
  beforeAll(async () => {
    fake = await startFakePaystack({ secretKey: KEY });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    fake.faults.refundStatusAtCreate = 'pending';
    fake.faults.refundNotesReplaced = false;
    fake.faults.serverErrors = { count: 0 };
    fake.faults.hangAfterHandling.clear();
  });

  /** The adapter's book of refund ids, in memory: one per test file, as the table is one per database. */
  const book = new Map<string, number>();
  const ids: PaystackRefundIds = { idOf: async (reference) => book.get(reference), record: async (reference, id) => void (book.has(reference) || book.set(reference, id)) };

  /** A payin paid at the fake, and a refund order of part of it. */
  function paid(options: { amount?: number; merchantNote?: string | null } = {}) {
    const { api, logger, logs } = apiAt(fake.url, KEY, 500);
    const hex = (++payments).toString(16).padStart(32, '0');
    const refunds = new PaystackRefunds(api, logger, ids, { mintHex: () => hex });
    const paymentReference = `psi-${hex}`;
    const transaction = fake.addPaidTransaction({ reference: paymentReference, amount: 100_000 });
    const order: RefundOrder = {
      providerReference: refunds.newReference(),
      paymentReference,
      amountMinor: BigInt(options.amount ?? 40_000),
      currency: 'NGN',
      customerNote: 'Sorry for the trouble',
      merchantNote: options.merchantNote === undefined ? 'goods returned' : options.merchantNote,
      account: null,
      merchantId: 'MCH-A',
    };
    const ofTransaction = () => [...fake.refunds.values()].filter((refund) => refund.transactionId === transaction.id);
    return { refunds, order, transaction, ofTransaction, logs };
  }

  it('answers refunds and banks with every field of the documented examples', async () => {
    const { order, transaction } = paid();
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${fake.url}${url}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const keys = (value: unknown) => Object.keys(value as object).sort();
    const first = (value: unknown) => (value as unknown[])[0];
    const created = await call('POST', '/refund', { transaction: order.paymentReference, amount: 100 });
    expect(keys(created.body.data)).toEqual(expect.arrayContaining(keys((fixture('refund-create.200.json') as { data: unknown }).data)));
    const id = (created.body.data as { id: number }).id;
    expect(keys((await call('GET', `/refund/${id}`)).body.data)).toEqual(expect.arrayContaining(keys(fixture('refund-fetch.200.json').data)));
    const listed = await call('GET', `/refund?transaction=${transaction.id}`);
    // The guide's example, as the OpenAPI description: the API reference's older one has `created_at` and `updated_at` instead.
    expect(keys(first(listed.body.data))).toEqual(expect.arrayContaining(keys(first(fixture('refund-list.guide.200.json').data))));
    expect(keys(listed.body.meta)).toEqual(expect.arrayContaining(keys(fixture('refund-list.guide.200.json').meta)));
    expect(await call('POST', `/refund/retry_with_customer_details/${id}`, { refund_account_details: { currency: 'NGN', account_number: '0001234567', bank_id: '7' } })).toEqual({ status: 422, body: fixture('refund-retry.422.json') });
    fake.refunds.get(id)!.status = 'needs-attention';
    const retried = await call('POST', `/refund/retry_with_customer_details/${id}`, { refund_account_details: { currency: 'NGN', account_number: '0001234567', bank_id: '7' } });
    expect(keys(retried.body.data)).toEqual(expect.arrayContaining(keys(fixture('refund-retry.200.json').data)));
    expect(keys(first((await call('GET', '/bank?use_cursor=true&perPage=2')).body.data))).toEqual(keys(first(fixture('bank-list.200.json').data)));
    expect(keys(fake.refundEvent(id))).toEqual(expect.arrayContaining(keys(fixture('webhook-refund-needs-attention.json').data)));
  });

  it('pages List Banks by cursor, as documented', async () => {
    const { api } = apiAt(fake.url);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const listed: Awaited<ReturnType<PaystackApi['listBanks']>> = await api.listBanks(cursor, caller());
      seen.push(...listed.banks.map((bank) => bank.id));
      cursor = listed.next;
    } while (cursor !== null);
    expect(seen).toEqual([...fake.banks.values()].map((bank) => bank.id).sort((a, b) => b - a));
  });

  it('makes one refund per reference, however often it is sent, carrying the reference in merchant_note', async () => {
    const { refunds, order, ofTransaction } = paid();
    expect(order.providerReference).toMatch(/^PSR-[0-9a-f]{32}$/);
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'not_found' });
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'processing' });
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'processing' });
    expect(ofTransaction()).toEqual([expect.objectContaining({ amount: 40_000, currency: 'NGN', merchantNote: `${order.providerReference}: goods returned`, customerNote: 'Sorry for the trouble' })]);
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'processing' });
  });

  it.each<[string, 'processed' | 'failed' | 'needs-attention' | 'processing', RefundAnswer]>([
    ['processed', 'processed', { outcome: 'successful' }],
    ['failed', 'failed', { outcome: 'failed', reason: 'provider_error' }],
    ['needs-attention', 'needs-attention', { outcome: 'requires_action' }],
    ['processing', 'processing', { outcome: 'processing' }],
  ])('answers a refund settled %s', async (_name, status, want) => {
    const { refunds, order, ofTransaction } = paid();
    await refunds.refund(order, signal());
    await fake.settleRefund((ofTransaction()[0] as { id: number }).id, status);
    expect(await refunds.status(order, signal())).toEqual(want);
    expect(await refunds.refund(order, signal())).toEqual(want);
    expect(ofTransaction()).toHaveLength(1);
  });

  it('finds the refund whose answer was lost, rather than making another', async () => {
    const { refunds, order, ofTransaction } = paid();
    fake.faults.hangAfterHandling.set('refund_create', 1);
    await expect(refunds.refund(order, signal())).rejects.toMatchObject({ outcome: 'timeout' });
    expect(ofTransaction()).toHaveLength(1);
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'processing' });
    expect(ofTransaction()).toHaveLength(1);
  });

  it("tells its refund from the payment's other refunds, on any page of the listing", async () => {
    const { refunds, order, transaction, ofTransaction } = paid({ amount: 100, merchantNote: null });
    await refunds.refund(order, signal());
    const ours = ofTransaction()[0] as { id: number; merchantNote: string };
    expect(ours.merchantNote).toBe(order.providerReference);
    // 150 later refunds of the same payment, made elsewhere (the dashboard), list ours on the second page.
    for (let n = 1; n <= 150; n++) {
      fake.refunds.set(ours.id + 100_000 + n, { ...ours, id: ours.id + 100_000 + n, amount: 1, merchantNote: `Refund for transaction ${transaction.reference} by ops@example.com`, status: 'processed' } as never);
    }
    // Its id not kept (as when its create's answer is lost): found by its note.
    book.delete(order.providerReference);
    const calls = fake.calls.length;
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'processing' });
    expect(fake.calls.slice(calls)).toEqual(['transaction_verify', 'refund_list', 'refund_list']);
    // Found, its id is kept: the next look is one fetch.
    const again = fake.calls.length;
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'processing' });
    expect(fake.calls.slice(again)).toEqual(['refund_fetch']);
    expect(await refunds.status({ ...order, providerReference: 'PSR-ffffffffffffffffffffffffffffffff' }, signal())).toEqual({ outcome: 'not_found' });
  });

  it('never answers not_found when the listing is not read, or the payment is not found', async () => {
    const { refunds, order } = paid();
    fake.faults.serverErrors = { count: 1, route: 'refund_list' };
    await expect(refunds.status(order, signal())).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(refunds.status({ ...order, paymentReference: 'psi-ffffffffffffffffffffffffffffffff' }, signal())).rejects.toBeInstanceOf(ProviderUnavailable);
    await expect(apiAt(fake.url, 'sk_test_another').api.listRefunds({ transactionId: 1, page: 1, perPage: 100 }, caller())).rejects.toMatchObject({ outcome: 'unauthorized' });
  });

  it('takes a refusal as a decline only when Paystack has no refund of the reference', async () => {
    const { refunds, order, ofTransaction } = paid({ amount: 100_001 });
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'failed', reason: 'declined_by_provider' });
    expect(ofTransaction()).toHaveLength(0);
  });

  it('answers a refund Paystack reports with another amount as a mismatch', async () => {
    const { refunds, order, ofTransaction } = paid();
    await refunds.refund(order, signal());
    (ofTransaction()[0] as { amount: number }).amount = 39_999;
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'mismatch', amountMinor: 39_999n, currency: 'NGN' });
  });

  it('says so loudly when Paystack does not keep the reference in merchant_note, and still never makes the refund twice', async () => {
    const { refunds, order, logs, ofTransaction } = paid();
    fake.faults.refundNotesReplaced = true;
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'processing' });
    expect(logs.join('')).toContain("paystack did not keep our reference in the refund's merchant_note");
    // Found by the id kept when it was made, not by its note: asked again, or sent again, it is the same refund.
    expect(await refunds.status(order, signal())).toEqual({ outcome: 'processing' });
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'processing' });
    expect(ofTransaction()).toHaveLength(1);
  });

  it("sends a refund that needs attention to the customer's account once, by Paystack's bank id", async () => {
    const { refunds, order, ofTransaction } = paid();
    fake.faults.refundStatusAtCreate = 'needs-attention';
    expect(await refunds.refund(order, signal())).toEqual({ outcome: 'requires_action' });
    const withAccount = { ...order, account: { bankCode: '058', accountNumber: '0001234567', accountName: 'ADA OBI' } };
    expect(await refunds.sendToAccount(withAccount, signal())).toEqual({ outcome: 'processing' });
    expect(ofTransaction()[0]).toMatchObject({ status: 'processing', account: { currency: 'NGN', accountNumber: '0001234567', bankId: 7 } });
    const calls = fake.calls.length;
    expect(await refunds.sendToAccount(withAccount, signal())).toEqual({ outcome: 'processing' });
    expect(fake.calls.slice(calls)).not.toContain('refund_retry');
    await fake.settleRefund((ofTransaction()[0] as { id: number }).id, 'processed');
    expect(await refunds.sendToAccount(withAccount, signal())).toEqual({ outcome: 'successful' });
  });

  it('keeps a refund waiting for an account Paystack cannot send to, and never sends one it has none of', async () => {
    const { refunds, order } = paid();
    fake.faults.refundStatusAtCreate = 'needs-attention';
    await refunds.refund(order, signal());
    // 301, Jaiz Bank: a bank we catalogue that the fake's List Banks lacks.
    expect(await refunds.sendToAccount({ ...order, account: { bankCode: '301', accountNumber: '0001234567', accountName: 'ADA OBI' } }, signal())).toEqual({ outcome: 'requires_action' });
    expect(await refunds.sendToAccount({ ...order, account: { bankCode: '999', accountNumber: '0001234567', accountName: 'ADA OBI' } }, signal())).toEqual({ outcome: 'requires_action' });
    // Refused by Paystack (the fake wants 10 digits): still waiting for an account.
    expect(await refunds.sendToAccount({ ...order, account: { bankCode: '058', accountNumber: '12345', accountName: 'ADA OBI' } }, signal())).toEqual({ outcome: 'requires_action' });
    const never = { ...order, providerReference: 'PSR-ffffffffffffffffffffffffffffffff', account: { bankCode: '058', accountNumber: '0001234567', accountName: 'ADA OBI' } };
    await expect(refunds.sendToAccount(never, signal())).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('sends the refund events with the refunded transaction, which the webhook reads as a prompt about its refunds', async () => {
    const { refunds, order, ofTransaction } = paid();
    await refunds.refund(order, signal());
    const received: { status: number; notice: unknown }[] = [];
    const webhooks = new PaystackWebhooks(apiAt(fake.url).api);
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ status: 200, notice: webhooks.read(Buffer.concat(chunks), request.headers) });
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    try {
      expect(await fake.settleRefund((ofTransaction()[0] as { id: number }).id, 'processed')).toBe(200);
      expect(received).toEqual([{ status: 200, notice: { object: 'refund', paymentReference: order.paymentReference, event: 'refund.processed' } }]);
    } finally {
      fake.webhookUrl = undefined;
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
