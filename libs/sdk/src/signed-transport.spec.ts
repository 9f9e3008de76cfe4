// SignedTransport with everything outside it injected: fetch answers from a
// script and records each request, sleep records its waits, and the clock,
// nonces and jitter are fixed, so retries and backoff are checked exactly.
import { verify } from '@paysign/signing';
import { MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS } from './client-options';
import { SignedTransport, type TransportConfig } from './signed-transport';

const NOW_MS = 1_767_225_600_000;
const CREDENTIAL = { apiKey: 'pk_transport', secretKey: 'sk_transport_0123456789', merchantId: 'MCH-T', tenantId: 'TEN-T' };
const URL_ = 'http://service.test/payment/api/payins';
const BODY = '{"amount":1000.50,"currency":"NGN"}';

type Answer = Response | Error | 'hang' | 'deaf';

function errorAnswer(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ code, message: `${code} happened.`, requestId: 'req-1', ...extra }), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A transport over a scripted fetch; `sent` holds every request with its body, `waits` every sleep. */
function observedTransport(answers: Answer[], overrides: Partial<TransportConfig> = {}) {
  const sent: Array<{ request: Request; body: string }> = [];
  const waits: number[] = [];
  let nonces = 0;
  // The clock moves only by the waits, so deadlines are checked exactly.
  let waited = 0;
  const transport = new SignedTransport({
    ...CREDENTIAL,
    timeoutMs: 1000,
    deadlineMs: 60_000,
    maxRetries: 2,
    retryDelayMs: 500,
    userAgent: 'paysign-sdk/test',
    clock: () => NOW_MS + waited,
    nonce: () => `nonce-${++nonces}`,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
      waited += ms;
    },
    fetch: async (request) => {
      sent.push({ request, body: await request.clone().text() });
      const answer = answers.shift();
      if (answer === undefined) throw new Error('the script has no more answers');
      if (answer === 'hang') return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      // Never settles, abort or not.
      if (answer === 'deaf') return new Promise<Response>(() => undefined);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    ...overrides,
  });
  const request = () => new Request(URL_, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json' } });
  const call = () => transport.fetch(request());
  const callNotIdempotent = () => transport.fetchNotIdempotent(request());
  return { transport, call, callNotIdempotent, sent, waits };
}

describe('SignedTransport', () => {
  it('signs every attempt afresh over the bytes it sends, with a new nonce', async () => {
    const { call, sent } = observedTransport([errorAnswer(503, 'STORE_UNAVAILABLE', { retryable: true }), new Response('{}', { status: 201 })]);
    expect((await call()).status).toBe(201);
    expect(sent.map((s) => s.request.headers.get('x-nonce'))).toEqual(['nonce-1', 'nonce-2']);
    for (const { request, body } of sent) {
      expect(body).toBe(BODY);
      const headers = Object.fromEntries(request.headers);
      const result = verify({ method: 'POST', path: '/payment/api/payins', headers, body, now: NOW_MS / 1000, secretFor: () => CREDENTIAL.secretKey });
      expect(result).toMatchObject({ ok: true, canonicalBody: 'amount=1000.50&currency=NGN' });
      expect(headers).toMatchObject({ 'x-merchant-id': 'MCH-T', 'x-tenant-id': 'TEN-T', 'user-agent': 'paysign-sdk/test' });
    }
  });

  it.each<[string, { answers: Answer[]; config?: Partial<TransportConfig>; waits: number[] }]>([
    ['backs off exponentially with full jitter', { answers: [errorAnswer(502, 'BANK_UNAVAILABLE'), errorAnswer(504, 'UPSTREAM_TIMEOUT'), new Response('{}')], waits: [250, 500] }],
    ['caps the backoff', { answers: [errorAnswer(503, 'STORE_UNAVAILABLE'), new Response('{}')], config: { retryDelayMs: 60_000, random: () => 0.999 }, waits: [Math.floor(0.999 * MAX_RETRY_DELAY_MS)] }],
    ['waits the seconds of Retry-After', { answers: [errorAnswer(503, 'STORE_UNAVAILABLE', {}, { 'retry-after': '3' }), new Response('{}')], waits: [3000] }],
    [
      'waits until the date of Retry-After, by the injected clock',
      { answers: [errorAnswer(503, 'STORE_UNAVAILABLE', {}, { 'retry-after': new Date(NOW_MS + 5000).toUTCString() }), new Response('{}')], waits: [5000] },
    ],
    ['cuts a long Retry-After to its cap', { answers: [errorAnswer(503, 'STORE_UNAVAILABLE', {}, { 'retry-after': '3600' }), new Response('{}')], waits: [MAX_RETRY_AFTER_MS] }],
    ['retries a connection failure', { answers: [new TypeError('fetch failed'), new Response('{}')], waits: [250] }],
    ['retries a retryable code of a newer service', { answers: [errorAnswer(429, 'SLOW_DOWN', { retryable: true }, { 'retry-after': '1' }), new Response('{}')], waits: [1000] }],
  ])('%s', async (_name, { answers, config, waits }) => {
    const run = observedTransport(answers, config);
    expect((await run.call()).status).toBe(200);
    expect(run.waits).toEqual(waits);
  });

  it.each<[number, string, string]>([
    [400, 'VALIDATION_FAILED', 'ValidationError'],
    [401, 'AUTH_SIGNATURE_MISMATCH', 'AuthenticationError'],
    [404, 'PAYIN_NOT_FOUND', 'NotFoundError'],
    [409, 'IDEMPOTENCY_CONFLICT', 'ConflictError'],
    [422, 'ACCOUNT_DORMANT', 'AccountEnquiryError'],
  ])('never retries %s %s', async (status, code, name) => {
    const { call, sent, waits } = observedTransport([errorAnswer(status, code, { retryable: false }), new Response('{}')]);
    await expect(call()).rejects.toMatchObject({ name, code, status, requestId: 'req-1' });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up after maxRetries, throwing the last error', async () => {
    const { call, sent } = observedTransport([errorAnswer(503, 'STORE_UNAVAILABLE'), errorAnswer(503, 'STORE_UNAVAILABLE'), errorAnswer(502, 'BANK_UNAVAILABLE')]);
    await expect(call()).rejects.toMatchObject({ name: 'ServiceUnavailableError', code: 'BANK_UNAVAILABLE', retryable: true });
    expect(sent).toHaveLength(3);
  });

  it('learns the clock offset from one skew answer, resends at once, and keeps it', async () => {
    const serverTime = NOW_MS / 1000 + 1000;
    const { transport, call, sent, waits } = observedTransport([errorAnswer(401, 'AUTH_TIMESTAMP_SKEW', { serverTime }), new Response('{}'), new Response('{}')]);
    await call();
    await call();
    expect(sent.map((s) => Number(s.request.headers.get('x-timestamp')))).toEqual([NOW_MS / 1000, serverTime, serverTime]);
    expect(transport.clockOffsetSeconds).toBe(1000);
    expect(waits).toEqual([]);
  });

  it('starts no retry that would pass the deadline, and throws the last error', async () => {
    const unavailable = () => errorAnswer(503, 'STORE_UNAVAILABLE');
    const { call, sent, waits } = observedTransport([unavailable(), unavailable(), unavailable(), new Response('{}')], { deadlineMs: 1200, maxRetries: 5, random: () => 0.999 });
    await expect(call()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    // 499 ms leaves 701 ms; the next backoff, 999 ms, would pass the deadline.
    expect(waits).toEqual([499]);
    expect(sent).toHaveLength(2);
  });

  it("cuts an attempt's time limit to what is left of the deadline", async () => {
    const { call, waits } = observedTransport(['hang'], { timeoutMs: 60_000, deadlineMs: 50, maxRetries: 0 });
    const started = Date.now();
    await expect(call()).rejects.toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('within 50 ms') });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(waits).toEqual([]);
  });

  it('corrects the clock only once per call', async () => {
    const skew = () => errorAnswer(401, 'AUTH_TIMESTAMP_SKEW', { serverTime: NOW_MS / 1000 + 1000 });
    const { call, sent } = observedTransport([skew(), skew()]);
    await expect(call()).rejects.toMatchObject({ code: 'AUTH_TIMESTAMP_SKEW' });
    expect(sent).toHaveLength(2);
  });

  it('times out an attempt that does not answer, and retries it', async () => {
    const { call, waits } = observedTransport(['hang', new Response('{}')], { timeoutMs: 20 });
    expect((await call()).status).toBe(200);
    expect(waits).toEqual([250]);
  });

  it('throws TimeoutError when every attempt times out', async () => {
    const { call } = observedTransport(['hang', 'hang'], { timeoutMs: 20, maxRetries: 1 });
    await expect(call()).rejects.toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', retryable: true });
  });

  it('times out a fetch that never settles, even one that ignores the abort', async () => {
    const { call, sent } = observedTransport(['deaf', 'deaf'], { timeoutMs: 20, maxRetries: 1 });
    await expect(call()).rejects.toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', message: expect.stringContaining('within 20 ms') });
    expect(sent).toHaveLength(2);
  });

  describe('for a call that is not idempotent', () => {
    it.each<[string, { answers: Answer[]; waits: number[] }]>([
      ['sends again after a refusal that did nothing: rate limited', { answers: [errorAnswer(429, 'RATE_LIMITED', { retryable: true }, { 'retry-after': '1' }), new Response('{}')], waits: [1000] }],
      ['sends again after a refusal that did nothing: a store down', { answers: [errorAnswer(503, 'STORE_UNAVAILABLE', { retryable: true }), new Response('{}')], waits: [250] }],
      ['sends again after a refusal that did nothing: the request came too slowly', { answers: [errorAnswer(408, 'REQUEST_TIMEOUT', { retryable: true }), new Response('{}')], waits: [250] }],
      ['corrects the clock and sends again at once', { answers: [errorAnswer(401, 'AUTH_TIMESTAMP_SKEW', { serverTime: NOW_MS / 1000 + 1000 }), new Response('{}')], waits: [] }],
    ])('%s', async (_name, { answers, waits }) => {
      const run = observedTransport(answers);
      expect((await run.callNotIdempotent()).status).toBe(200);
      expect(run.waits).toEqual(waits);
    });

    it.each<[string, { answer: Answer; config?: Partial<TransportConfig>; want: Record<string, unknown> }]>([
      ['a 500, whose request may have taken effect', { answer: errorAnswer(500, 'INTERNAL_ERROR', { retryable: true }), want: { name: 'ApiError', code: 'INTERNAL_ERROR', retryable: true } }],
      ["a proxy's 502 page", { answer: new Response('<html>Bad gateway</html>', { status: 502 }), want: { name: 'ServiceUnavailableError', code: 'HTTP_502' } }],
      ['a lost connection', { answer: new TypeError('other side closed'), want: { name: 'ConnectionError', code: 'CONNECTION_FAILED' } }],
      ['a timeout', { answer: 'hang', config: { timeoutMs: 20 }, want: { name: 'TimeoutError', code: 'TIMEOUT' } }],
    ])('never sends again after %s, and throws it', async (_name, { answer, config, want }) => {
      const { callNotIdempotent, sent, waits } = observedTransport([answer, new Response('{}')], config);
      await expect(callNotIdempotent()).rejects.toMatchObject(want);
      expect(sent).toHaveLength(1);
      expect(waits).toEqual([]);
    });
  });
});
