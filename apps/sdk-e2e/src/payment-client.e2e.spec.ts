import { APPROVER_A, JobRunner, MERCHANT_A, MERCHANT_B, PayoutDispatcher, SANDBOX_PAYOUT_ACCOUNTS, payoutMerchantsFile, startTestApp, type TestApp } from '@paysign/api/testing';
import {
  AccountEnquiryError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PaymentClient,
  PermissionError,
  PaymentError,
  RateLimitError,
  TimeoutError,
  ServiceUnavailableError,
  ValidationError,
  type PaymentClientOptions,
} from '@paysign/sdk';

interface Attempt {
  nonce: string | null;
  timestamp: string | null;
  signature: string | null;
}

/** The real fetch, with a log of every attempt and optional injected faults before it. */
function observedFetch(faults: Array<'network' | 503 | 429 | 'hang'> = []) {
  const attempts: Attempt[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    attempts.push({ nonce: request.headers.get('x-nonce'), timestamp: request.headers.get('x-timestamp'), signature: request.headers.get('x-signature') });
    const fault = faults.shift();
    if (fault === 'network') throw new TypeError('fetch failed: ECONNRESET');
    if (fault === 'hang') return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    if (fault === 503) return Response.json({ code: 'STORE_UNAVAILABLE', message: 'down', requestId: 'r', retryable: true }, { status: 503 });
    if (fault === 429) return new Response('{}', { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' } });
    return globalThis.fetch(request);
  };
  return { fetch, attempts };
}

describe('PaymentClient against the real service', () => {
  let api: TestApp;
  let options: PaymentClientOptions;
  beforeAll(async () => {
    api = await startTestApp();
    options = { baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 };
  });
  afterAll(() => api.close());

  describe('methods', () => {
    const client = () => new PaymentClient(options);

    it('banks.list', async () => {
      expect(await client().banks.list()).toContainEqual({ name: 'Access Bank', code: '044', logo: null, category: 'commercial' });
    });

    it('accounts.enquire', async () => {
      expect(await client().accounts.enquire({ bankCode: '058', accountNumber: '0123456785' })).toEqual({ success: true, code: '00000000', accountName: 'ADAEZE NWOSU', message: 'Success', enquiryId: expect.stringMatching(/^enq_/), expiresAt: expect.any(String) });
    });

    it('payins.create, replayed safely, and payins.get', async () => {
      const input = { amount: 1000.5, currency: 'NGN' as const, customerEmail: 'ada@example.com', reference: `sdk-${Date.now()}` };
      const created = await client().payins.create(input);
      expect(created).toMatchObject({ ...input, status: 'PENDING', merchantId: 'MCH-A', idempotentReplayed: false });
      expect(await client().payins.create(input)).toMatchObject({ reference: input.reference, idempotentReplayed: true });
      const { idempotentReplayed, ...payin } = created;
      expect(idempotentReplayed).toBe(false);
      expect(await client().payins.get(input.reference)).toEqual(payin);
      expect(created.checkoutUrl).toMatch(new RegExp(`^${api.baseUrl}/payment/checkout/[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(created.expiresAt)).toBeGreaterThan(Date.now());
    });

    it('payins.simulate drives a payin to its final state, and a second time is a ConflictError', async () => {
      const reference = `sdk-sim-${Date.now()}`;
      await client().payins.create({ amount: 250, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      expect(await client().payins.simulate(reference, { outcome: 'failed', failureReason: 'insufficient_funds' })).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds', checkoutUrl: null });
      const again = await client().payins.simulate(reference, { outcome: 'successful' }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(ConflictError);
      expect(again).toMatchObject({ code: 'PAYIN_NOT_PENDING', status: 409 });
    });

    it('payins.simulate records declined attempts, and payins.cancel cancels an open payin once', async () => {
      const reference = `sdk-decline-${Date.now()}`;
      await client().payins.create({ amount: 250, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      const declined = await client().payins.simulate(reference, { outcome: 'declined', failureReason: 'expired_card' });
      expect(declined).toMatchObject({ status: 'PENDING', attempts: [{ channel: 'card', outcome: 'declined', declineReason: 'expired_card' }] });
      expect(await client().payins.cancel(reference)).toMatchObject({ status: 'CANCELLED', failureReason: 'merchant_cancelled', checkoutUrl: null });
      const again = await client().payins.cancel(reference).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(ConflictError);
      expect(again).toMatchObject({ code: 'PAYIN_NOT_PENDING', status: 409 });
    });

    it('payins.list is one page when awaited, from a cursor when given, and every payin with for await', async () => {
      const createdFrom = new Date().toISOString();
      const references: string[] = [];
      for (let i = 0; i < 5; i++) {
        references.push((await client().payins.create({ amount: 10 + i, currency: 'NGN', customerEmail: 'ada@example.com', reference: `sdk-list-${Date.now()}-${i}` })).reference);
      }
      await client().payins.simulate(references[1] as string, { outcome: 'successful' });
      await client().payins.simulate(references[3] as string, { outcome: 'successful' });

      const page = await client().payins.list({ createdFrom, limit: 2 });
      expect(page.data.map((p) => p.reference)).toEqual([references[4], references[3]]);
      expect(page).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });

      const walked: string[] = [];
      for await (const payin of client().payins.list({ createdFrom, limit: 2 })) walked.push(payin.reference);
      expect(walked).toEqual([...references].reverse());

      const successful = await client().payins.list({ createdFrom, status: 'SUCCESSFUL' }).toArray();
      expect(successful.map((p) => p.reference)).toEqual([references[3], references[1]]);
      expect((await client().payins.list({ createdFrom, limit: 1 })).data).toHaveLength(1);
      // Awaited with a page's cursor, it is the next page.
      const second = await client().payins.list({ createdFrom, limit: 2, cursor: page.nextCursor as string });
      expect(second.data.map((p) => p.reference)).toEqual([references[2], references[1]]);
    });

    it("balance.get and balance.entries: a successful payin's money, less its fee, entry by entry", async () => {
      const before = await client().balance.get();
      const reference = `sdk-balance-${Date.now()}`;
      await client().payins.create({ amount: 200, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      expect(await client().payins.simulate(reference, { outcome: 'successful' })).toMatchObject({ fee: 3 });
      // Sandbox settles at once: 1.5 % of ₦200 is ₦3, and ₦197 is available.
      expect(await client().balance.get('NGN')).toEqual({ ...before, available: before.available + 197 });
      const newest: Array<[string, string, number]> = [];
      for await (const entry of client().balance.entries({ limit: 3 })) {
        newest.push([entry.type, entry.balance, entry.amount]);
        if (newest.length === 4) break;
      }
      expect(newest).toEqual([
        ['settlement', 'available', 197],
        ['settlement', 'pending', -197],
        ['payin_fee', 'pending', -3],
        ['payin_credit', 'pending', 200],
      ]);
      expect((await client().balance.entries({ limit: 1 })).hasMore).toBe(true);
      expect(await client().balance.get('USD')).toEqual({ currency: 'USD', available: 0, pending: 0, held: 0 });
    });

    it('payins.list refuses a bad filter with a ValidationError naming it', async () => {
      const error = (await client().payins.list({ limit: 500 }).catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details).toEqual([expect.objectContaining({ field: 'limit' })]);
    });
  });

  describe('errors', () => {
    it.each<[string, { run: (c: PaymentClient) => Promise<unknown>; type: typeof PaymentError; code: string; status?: number }]>([
      ['a wrong secret', { run: () => new PaymentClient({ ...options, secretKey: 'sk_wrong_wrong_wrong' }).banks.list(), type: AuthenticationError, code: 'AUTH_SIGNATURE_MISMATCH', status: 401 }],
      ['an invalid field', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '123' }), type: ValidationError, code: 'VALIDATION_FAILED', status: 400 }],
      ['an unknown payin', { run: (c) => c.payins.get('never-created'), type: NotFoundError, code: 'PAYIN_NOT_FOUND', status: 404 }],
      ['an unknown account', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '0000000018' }), type: AccountEnquiryError, code: 'ACCOUNT_NOT_FOUND', status: 422 }],
      ['a wrong check digit', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '0123456786' }), type: AccountEnquiryError, code: 'NUBAN_CHECK_FAILED', status: 422 }],
      ['an unavailable bank, after the retries', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '0000000032' }), type: ServiceUnavailableError, code: 'BANK_UNAVAILABLE', status: 502 }],
      ['a bank that does not answer', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '0000000049' }), type: ServiceUnavailableError, code: 'UPSTREAM_TIMEOUT', status: 504 }],
    ])('throws a typed error for %s', async (_name, { run, type, code, status }) => {
      const error = await run(new PaymentClient(options)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(PaymentError);
      expect(error).toMatchObject({ code, status, requestId: expect.any(String) });
    });

    it('throws ConflictError for a reused reference with another body', async () => {
      const reference = `sdk-conflict-${Date.now()}`;
      const client = new PaymentClient(options);
      await client.payins.create({ amount: 10, currency: 'NGN', customerEmail: 'a@example.com', reference });
      await expect(client.payins.create({ amount: 11, currency: 'NGN', customerEmail: 'a@example.com', reference })).rejects.toBeInstanceOf(ConflictError);
    });

    it('lists field details on ValidationError', async () => {
      const error = (await new PaymentClient(options).payins.create({ amount: -1, currency: 'NGN', customerEmail: 'x', reference: 'ok' }).catch((e: unknown) => e)) as ValidationError;
      expect(error.details.map((d) => d.field).sort()).toEqual(['amount', 'customerEmail']);
    });

    it('throws ConnectionError when nothing listens', async () => {
      const client = new PaymentClient({ ...options, baseUrl: 'http://127.0.0.1:9', maxRetries: 1 });
      await expect(client.banks.list()).rejects.toBeInstanceOf(ConnectionError);
    });

    it('throws TimeoutError when an attempt exceeds timeoutMs', async () => {
      const { fetch, attempts } = observedFetch(['hang', 'hang']);
      const client = new PaymentClient({ ...options, fetch, timeoutMs: 100, maxRetries: 1 });
      await expect(client.banks.list()).rejects.toBeInstanceOf(TimeoutError);
      expect(attempts).toHaveLength(2);
    });

    it('throws RateLimitError with Retry-After when 429 persists', async () => {
      const { fetch } = observedFetch([429]);
      const error = await new PaymentClient({ ...options, fetch, maxRetries: 0 }).banks.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfterSeconds).toBe(1);
    });
  });

  describe('retries', () => {
    it('re-signs every attempt with a new nonce and never reuses one', async () => {
      const { fetch, attempts } = observedFetch(['network', 503]);
      const client = new PaymentClient({ ...options, fetch });
      expect((await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' })).success).toBe(true);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((a) => a.nonce)).size).toBe(3);
      expect(new Set(attempts.map((a) => a.signature)).size).toBe(3);
    });

    it('retries a create after a lost connection without creating twice', async () => {
      const { fetch, attempts } = observedFetch(['network']);
      const reference = `sdk-retry-${Date.now()}`;
      const created = await new PaymentClient({ ...options, fetch }).payins.create({ amount: 5, currency: 'NGN', customerEmail: 'a@example.com', reference });
      expect(attempts).toHaveLength(2);
      expect(created.idempotentReplayed).toBe(false);
    });

    it('honours Retry-After on 429', async () => {
      const { fetch, attempts } = observedFetch([429]);
      const started = Date.now();
      await new PaymentClient({ ...options, fetch }).banks.list();
      expect(attempts).toHaveLength(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it.each<[string, { secretKey?: string; run: (c: PaymentClient) => Promise<unknown> }]>([
      ['400', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '1' }) }],
      ['401', { secretKey: 'sk_wrong_wrong_wrong', run: (c) => c.banks.list() }],
      ['422', { run: (c) => c.accounts.enquire({ bankCode: '058', accountNumber: '0000000025' }) }],
    ])('never retries %s', async (_status, { secretKey, run }) => {
      const { fetch, attempts } = observedFetch();
      await expect(run(new PaymentClient({ ...options, ...(secretKey ? { secretKey } : {}), fetch }))).rejects.toBeInstanceOf(PaymentError);
      expect(attempts).toHaveLength(1);
    });

    it('never retries 409', async () => {
      const reference = `sdk-409-${Date.now()}`;
      await new PaymentClient(options).payins.create({ amount: 1, currency: 'NGN', customerEmail: 'a@example.com', reference });
      const { fetch, attempts } = observedFetch();
      await expect(new PaymentClient({ ...options, fetch }).payins.create({ amount: 2, currency: 'NGN', customerEmail: 'a@example.com', reference })).rejects.toBeInstanceOf(ConflictError);
      expect(attempts).toHaveLength(1);
    });
  });

  describe('clock skew', () => {
    it('learns the server clock from a skew answer, retries once, and keeps the offset', async () => {
      const { fetch, attempts } = observedFetch();
      const client = new PaymentClient({ ...options, fetch, clock: () => Date.now() + 1_000_000 });
      expect((await client.banks.list()).length).toBeGreaterThan(0);
      expect(attempts).toHaveLength(2);
      expect(client.clockOffsetSeconds).toBeGreaterThanOrEqual(-1002);
      expect(client.clockOffsetSeconds).toBeLessThanOrEqual(-998);
      await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
      expect(attempts).toHaveLength(3);
    });
  });
});

describe('PaymentClient payouts against the real service', () => {
  let api: TestApp;
  let client: PaymentClient;
  // Jobs run when the test runs them, so that a payout is QUEUED until the test sends it.
  beforeAll(async () => {
    api = await startTestApp({ SANDBOX_PAYOUT_DELAY_MS: '0' }, { startJobs: false });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    const reference = `sdk-fund-${Date.now()}`;
    await client.payins.create({ amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await client.payins.simulate(reference, { outcome: 'successful' });
  });
  afterAll(() => api.close());
  const stalled = SANDBOX_PAYOUT_ACCOUNTS.find((account) => account.behaviour.kind === 'stays-pending') as (typeof SANDBOX_PAYOUT_ACCOUNTS)[number];

  it('payouts.create holds the money, is replayed safely, and is sent, read, listed and requeried', async () => {
    const before = await client.balance.get();
    const { enquiryId } = await client.accounts.enquire({ bankCode: stalled.bankCode, accountNumber: stalled.accountNumber });
    const input = { reference: `sdk-po-${Date.now()}`, amount: 2000, currency: 'NGN' as const, enquiryId, narration: 'Invoice 1', expectedAccountName: stalled.accountName };
    const created = await client.payouts.create(input);
    expect(created).toMatchObject({ status: 'QUEUED', fee: 25, nameMatch: 'exact', idempotentReplayed: false });
    expect(await client.payouts.create(input)).toMatchObject({ reference: input.reference, idempotentReplayed: true });
    expect(await client.balance.get()).toMatchObject({ available: before.available - 2025, held: before.held + 2025 });
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
    expect(await client.payouts.get(input.reference)).toMatchObject({ status: 'PROCESSING', providerReference: expect.stringMatching(/^PSX-/) });
    expect(await client.payouts.requery(input.reference)).toMatchObject({ status: 'PROCESSING' });
    expect(await client.payouts.requery(input.reference).catch((e: unknown) => e)).toBeInstanceOf(RateLimitError);
    const cancel = await client.payouts.cancel(input.reference).catch((e: unknown) => e);
    expect(cancel).toBeInstanceOf(ConflictError);
    expect(cancel).toMatchObject({ code: 'PAYOUT_NOT_CANCELLABLE' });
    const listed = await client.payouts.list({ status: 'PROCESSING' }).toArray();
    expect(listed.map((payout) => payout.reference)).toContain(input.reference);
    expect(await client.payouts.simulate(input.reference, { outcome: 'successful' })).toMatchObject({ status: 'SUCCESSFUL', version: 3 });
    expect(await client.payouts.simulate(input.reference, { outcome: 'reversed' })).toMatchObject({ status: 'REVERSED', version: 4 });
    expect(await client.payouts.events(input.reference)).toEqual([]);
  });

  it('payouts.cancel releases a queued payout; a refused payout is a ValidationError with its code', async () => {
    const { enquiryId } = await client.accounts.enquire({ bankCode: stalled.bankCode, accountNumber: stalled.accountNumber });
    const reference = `sdk-cancel-${Date.now()}`;
    await client.payouts.create({ reference, amount: 1000, currency: 'NGN', enquiryId, narration: 'Refund' });
    expect(await client.payouts.cancel(reference)).toMatchObject({ status: 'CANCELLED' });
    const refused = await client.payouts.create({ reference: `${reference}-big`, amount: 4_000_000, currency: 'NGN', enquiryId, narration: 'Too much' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 422 });
  });
});

describe('PaymentClient payout approval and batches against the real service', () => {
  let api: TestApp;
  let creator: PaymentClient;
  let approver: PaymentClient;
  let other: PaymentClient;
  beforeAll(async () => {
    // Merchant A needs a second credential to approve any payout; merchant B needs none.
    api = await startTestApp(
      { MERCHANTS_FILE: payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: 0 } }), SANDBOX_PAYOUT_DELAY_MS: '0', RATE_LIMIT_PER_KEY_PER_SECOND: '1000', RATE_LIMIT_PER_KEY_BURST: '1000' },
      { startJobs: false },
    );
    creator = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    approver = new PaymentClient({ baseUrl: api.baseUrl, ...APPROVER_A, retryDelayMs: 10 });
    other = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_B, retryDelayMs: 10 });
    for (const client of [creator, other]) {
      const reference = `sdk-fund-${Date.now()}`;
      await client.payins.create({ amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      await client.payins.simulate(reference, { outcome: 'successful' });
    }
  });
  afterAll(() => api.close());
  const send = async () => {
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
  };

  it('payouts.approve by a second credential sends the payout; the creator\'s own approval is a PermissionError; payouts.reject cancels', async () => {
    const { enquiryId } = await creator.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    const reference = `sdk-approve-${Date.now()}`;
    expect(await creator.payouts.create({ reference, amount: 1500, currency: 'NGN', enquiryId, narration: 'Vendor' })).toMatchObject({ status: 'PENDING_APPROVAL', approval: { status: 'pending' } });
    const own = await creator.payouts.approve(reference).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(PermissionError);
    expect(own).toMatchObject({ code: 'APPROVER_REQUIRED', status: 403, retryable: false });
    expect(await approver.payouts.approve(reference)).toMatchObject({ status: 'QUEUED', approval: { status: 'approved', decidedBy: APPROVER_A.apiKey } });
    await send();
    expect(await creator.payouts.get(reference)).toMatchObject({ status: 'SUCCESSFUL' });
    const rejected = `${reference}-rejected`;
    await creator.payouts.create({ reference: rejected, amount: 700, currency: 'NGN', enquiryId, narration: 'Vendor' });
    expect(await approver.payouts.reject(rejected, 'Not ours')).toMatchObject({ status: 'CANCELLED', cancellationReason: 'rejected', approval: { reason: 'Not ours' } });
  });

  it('payoutBatches.createWithItems adds every item and submits with their count and total; a second credential submits when approval is on', async () => {
    const { enquiryId } = await other.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    const items = Array.from({ length: 30 }, (_, i) => ({ reference: `sdk-item-${Date.now()}-${i}`, amount: 100.1 + i, currency: 'NGN' as const, enquiryId, narration: `Salary ${i}` }));
    const reference = `sdk-batch-${Date.now()}`;
    const result = await other.payoutBatches.createWithItems({ reference, title: 'Payroll', items, concurrency: 5, submit: true });
    expect(result.failures).toEqual([]);
    expect(result.expected).toEqual({ expectedCount: 30, expectedTotal: 3438 });
    expect(result.batch).toMatchObject({ status: 'SUBMITTED', itemCount: 30, total: 3438, byStatus: [{ status: 'QUEUED', count: 30, amount: 3438 }] });
    // Run again, as after a crash: nothing is added twice.
    const again = await other.payoutBatches.createWithItems({ reference, title: 'Payroll', items, submit: true });
    expect(again.batch).toMatchObject({ status: 'SUBMITTED', itemCount: 30 });
    const listed = await other.payouts.list({ batchReference: reference }).toArray();
    expect(listed).toHaveLength(30);
    expect((await other.payoutBatches.list({ status: 'SUBMITTED' }).toArray()).map((batch) => batch.reference)).toContain(reference);

    const { enquiryId: aEnquiry } = await creator.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    const approvalBatch = `${reference}-approval`;
    const built = await creator.payoutBatches.createWithItems({ reference: approvalBatch, title: 'Vendors', items: items.slice(0, 3).map((item) => ({ ...item, reference: `${item.reference}-a`, enquiryId: aEnquiry })) });
    expect(built.batch).toMatchObject({ status: 'OPEN', approvalRequired: true, itemCount: 3 });
    const wrong = await approver.payoutBatches.submit(approvalBatch, { expectedCount: 3, expectedTotal: 1 }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ConflictError);
    expect(wrong).toMatchObject({ code: 'PAYOUT_BATCH_MISMATCH' });
    expect(await approver.payoutBatches.submit(approvalBatch, built.expected)).toMatchObject({ status: 'SUBMITTED', submittedBy: APPROVER_A.apiKey });
    await send();
    expect(await creator.payoutBatches.get(approvalBatch)).toMatchObject({ status: 'COMPLETED', byStatus: [{ status: 'SUCCESSFUL', count: 3 }] });
    const cancelled = await other.payoutBatches.create({ reference: `${reference}-cancel`, title: 'Oops' });
    expect(cancelled).toMatchObject({ status: 'OPEN', idempotentReplayed: false });
    expect(await other.payoutBatches.cancel(cancelled.reference)).toMatchObject({ status: 'CANCELLED' });
  });
});

describe('PaymentClient refunds against the real service', () => {
  let api: TestApp;
  let client: PaymentClient;
  // Jobs run when the test runs them, so that a refund stays PENDING until the test sends it or simulates the provider.
  beforeAll(async () => {
    api = await startTestApp({}, { startJobs: false });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    // A balance that covers every refund here, whichever balance each is held from, so that none is refused INSUFFICIENT_BALANCE.
    const reference = `sdk-fund-${Date.now()}`;
    await client.payins.create({ amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await client.payins.simulate(reference, { outcome: 'successful' });
  });
  afterAll(() => api.close());

  /** A SUCCESSFUL payin of this amount, to refund. */
  const paidPayin = async (amount: number, name: string): Promise<string> => {
    const reference = `sdk-refund-${name}-${Date.now()}`;
    await client.payins.create({ amount, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await client.payins.simulate(reference, { outcome: 'successful' });
    return reference;
  };
  const failure = (promise: PromiseLike<unknown>) => Promise.resolve(promise).then(() => undefined, (e: unknown) => e);

  it('refunds.create holds part of a payin, is replayed safely, and is read, listed and cancelled once', async () => {
    const payinReference = await paidPayin(1500.5, 'part');
    const input = { reference: `${payinReference}-r1`, payinReference, amount: 500, reason: 'requested_by_customer' as const, customerNote: 'One of the two items was out of stock' };
    const created = await client.refunds.create(input);
    expect(created).toMatchObject({ ...input, status: 'PENDING', currency: 'NGN', merchantId: 'MCH-A', fundedFrom: expect.stringMatching(/^(pending|available)$/), failureReason: null, idempotentReplayed: false });
    expect(await client.refunds.create(input)).toMatchObject({ reference: input.reference, status: 'PENDING', idempotentReplayed: true });
    const { idempotentReplayed, ...refund } = created;
    expect(idempotentReplayed).toBe(false);
    expect(await client.refunds.get(input.reference)).toEqual(refund);
    expect((await client.refunds.list({ payinReference }).toArray()).map((listed) => listed.reference)).toEqual([input.reference]);

    const reused = await failure(client.refunds.create({ ...input, amount: 400 }));
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', status: 409 });
    // ₦1,000.50 is left to refund while ₦500 is in flight: ₦1,200 more is refused, and nothing is held for it.
    const tooMuch = await failure(client.refunds.create({ reference: `${payinReference}-r2`, payinReference, amount: 1200 }));
    expect(tooMuch).toBeInstanceOf(ValidationError);
    expect(tooMuch).toMatchObject({ code: 'REFUND_EXCEEDS_PAYIN', status: 422, retryable: false });
    expect((tooMuch as ValidationError).details).toEqual([expect.objectContaining({ field: 'amount' })]);

    expect(await client.refunds.cancel(input.reference)).toMatchObject({ status: 'CANCELLED', completedAt: expect.any(String) });
    const again = await failure(client.refunds.cancel(input.reference));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ code: 'REFUND_NOT_CANCELLABLE', status: 409 });
    // Cancelled, it no longer counts: the whole payin can be refunded again, amount left out.
    expect(await client.refunds.create({ reference: `${payinReference}-r3`, payinReference })).toMatchObject({ amount: 1500.5, status: 'PENDING' });
  });

  it('refunds.simulate answers for the provider: successful is final, and a move out of it is a ConflictError', async () => {
    const payinReference = await paidPayin(800, 'success');
    const reference = `${payinReference}-r1`;
    await client.refunds.create({ reference, payinReference, amount: 300 });
    expect(await client.refunds.simulate(reference, { outcome: 'successful' })).toMatchObject({ status: 'SUCCESSFUL', providerReference: expect.any(String), processingAt: expect.any(String), completedAt: expect.any(String) });
    const moved = await failure(client.refunds.simulate(reference, { outcome: 'failed' }));
    expect(moved).toBeInstanceOf(ConflictError);
    expect(moved).toMatchObject({ code: 'REFUND_TRANSITION_NOT_ALLOWED', status: 409 });
    const cancel = await failure(client.refunds.cancel(reference));
    expect(cancel).toMatchObject({ code: 'REFUND_NOT_CANCELLABLE' });
    expect(await client.refunds.events(reference)).toEqual([]);
  });

  it('refunds.setAccount sends a REQUIRES_ACTION refund to the account of an enquiry; a failed one says why', async () => {
    const payinReference = await paidPayin(900, 'account');
    const reference = `${payinReference}-r1`;
    await client.refunds.create({ reference, payinReference, amount: 400.53 }); // .53: held PROCESSING at the account until simulated
    const early = await failure(client.refunds.setAccount(reference, { enquiryId: 'enq_AAAAAAAAAAAAAAAAAAAAAA' }));
    expect(early).toBeInstanceOf(ConflictError);
    expect(early).toMatchObject({ code: 'REFUND_NOT_AWAITING_ACCOUNT', status: 409 });
    expect(await client.refunds.simulate(reference, { outcome: 'requires_action' })).toMatchObject({ status: 'REQUIRES_ACTION', account: null });
    const { enquiryId } = await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    expect(await client.refunds.setAccount(reference, { enquiryId })).toMatchObject({
      status: 'PROCESSING',
      account: { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU', enquiryId },
    });
    expect(await client.refunds.simulate(reference, { outcome: 'failed', reason: 'account_not_found' })).toMatchObject({ status: 'FAILED', failureReason: 'account_not_found' });
    expect((await client.refunds.list({ payinReference, status: 'FAILED' })).data.map((refund) => refund.reference)).toEqual([reference]);
  });

  it('refunds.list is one page when awaited, from a cursor when given, and every refund with for await', async () => {
    const createdFrom = new Date().toISOString();
    const payinReference = await paidPayin(100, 'list');
    const references: string[] = [];
    for (let i = 0; i < 5; i++) references.push((await client.refunds.create({ reference: `${payinReference}-r${i}`, payinReference, amount: 10 + i })).reference);
    const page = await client.refunds.list({ createdFrom, limit: 2 });
    expect(page.data.map((refund) => refund.reference)).toEqual([references[4], references[3]]);
    expect(page).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await client.refunds.list({ createdFrom, limit: 2, cursor: page.nextCursor as string });
    expect(second.data.map((refund) => refund.reference)).toEqual([references[2], references[1]]);
    const walked: string[] = [];
    for await (const refund of client.refunds.list({ createdFrom, limit: 2 })) walked.push(refund.reference);
    expect(walked).toEqual([...references].reverse());
    const refused = (await failure(client.refunds.list({ limit: 500 }))) as ValidationError;
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.details).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it.each<[string, { run: (c: PaymentClient) => Promise<unknown>; type: typeof PaymentError; code: string; status: number }]>([
    ['an unknown refund', { run: (c) => c.refunds.get('never-created'), type: NotFoundError, code: 'REFUND_NOT_FOUND', status: 404 }],
    ['a refund of an unknown payin', { run: (c) => c.refunds.create({ reference: `sdk-refund-none-${Date.now()}`, payinReference: 'never-created' }), type: NotFoundError, code: 'PAYIN_NOT_FOUND', status: 404 }],
    [
      'a refund of a payin not paid',
      {
        run: async (c) => {
          const payinReference = `sdk-refund-unpaid-${Date.now()}`;
          await c.payins.create({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: payinReference });
          return c.refunds.create({ reference: `${payinReference}-r1`, payinReference });
        },
        type: ConflictError,
        code: 'PAYIN_NOT_REFUNDABLE',
        status: 409,
      },
    ],
  ])('throws a typed error for %s', async (_name, { run, type, code, status }) => {
    const error = await failure(run(client));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, status, retryable: false, requestId: expect.any(String) });
  });
});

describe('PaymentClient against the service rate limit', () => {
  let api: TestApp;
  beforeAll(async () => {
    // A burst allowance of 2 per second: the third call in a second is answered 429 with Retry-After.
    api = await startTestApp({ RATE_LIMIT_PER_KEY_PER_SECOND: '1', RATE_LIMIT_PER_KEY_BURST: '2' });
  });
  afterAll(() => api.close());

  it("waits out the service's own 429 and Retry-After, then succeeds", async () => {
    const client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    const started = Date.now();
    for (let call = 0; call < 3; call++) expect((await client.banks.list()).length).toBeGreaterThan(0);
    const limited = api.logs.filter((line) => line.outcome === 'RATE_LIMITED');
    expect(limited).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('throws RateLimitError with the Retry-After of the real answer when retries run out', async () => {
    const client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, maxRetries: 0 });
    const errors = await Promise.all(Array.from({ length: 3 }, () => client.banks.list().then(() => undefined, (e: unknown) => e)));
    const limited = errors.filter((e) => e instanceof RateLimitError) as RateLimitError[];
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true, retryAfterSeconds: 1 });
  });
});
