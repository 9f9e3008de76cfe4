// A bug met while using a store is a bug, answered 500 with its stack logged;
// only the store's own failure is a 503 that marks it down.
import { createHash } from 'node:crypto';
import { signedCall, send } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { openPgliteFromTemplate } from './support/pglite-template';
import { startTestApp, type TestApp } from './support/test-app';
import type { SqlClient } from '../src/db/sql-client';

const PAYINS = '/payment/api/payins';

/** The payin store, with a bug planted in what it hands the row mapping: `amount_minor` goes missing from read rows, so BigInt(undefined) throws a TypeError. */
async function payinStoreWithBrokenRows(): Promise<SqlClient> {
  const client = await openPgliteFromTemplate();
  const broken = async <R>(sql: string, params?: unknown[]) => {
    const result = await client.query<R>(sql, params);
    if (!/^SELECT .* FROM payins WHERE merchant_id = \$1 AND reference = \$2$/s.test(sql)) return result;
    return { rows: result.rows.map((row) => ({ ...(row as object), amount_minor: undefined }) as R) };
  };
  return { ...client, query: broken, transaction: (work) => client.transaction(work), close: () => client.close() };
}

describe('a bug in a repository', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({}, { overrides: { payinStore: await payinStoreWithBrokenRows() } });
  });
  afterAll(() => api.close());

  it('answers 500 INTERNAL_ERROR with the stack logged once with the request id, and readiness stays 200', async () => {
    const created = await signedCall(api.baseUrl, { path: PAYINS, body: '{"amount":10,"currency":"NGN","customerEmail":"ada@example.com","reference":"planted-1"}', credential: MERCHANT_A });
    expect(created.status).toBe(201);

    const read = await signedCall(api.baseUrl, { path: `${PAYINS}/planted-1`, credential: MERCHANT_A });
    expect(read.status).toBe(500);
    expect(read.json).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
    const requestId = read.json.requestId;
    const failures = api.logs.filter((line) => line.msg === 'request failed' && line.reqId === requestId);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 50, err: { name: 'TypeError', stack: expect.stringContaining('fromRow') } });

    expect(api.logs.filter((line) => String(line.msg).includes('unreachable'))).toEqual([]);
    const health = await send(api.baseUrl, { method: 'GET', path: '/payment/health' });
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ checks: { payinStore: 'up' } });
  });
});

describe('a listing cursor naming an instant no date can hold', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  // The key a cursor names its filters by, for a listing with none: anyone can compute it, so it proves nothing.
  const noFilters = createHash('sha256').update('\n\n').digest('base64url').slice(0, 11);
  const cursor = (at: number) => Buffer.from(JSON.stringify([at, 'order-1', noFilters])).toString('base64url');

  it.each([
    ['past what a JavaScript date holds', 8.64e15 + 1],
    ['at the last instant a JavaScript date holds', 8.64e15],
    ['in the year 10000', Date.parse('+010000-01-01T00:00:00Z')],
  ])('gets 400 with details for an instant %s, never reaches the store, and leaves readiness at 200', async (_name, at) => {
    for (let i = 0; i < 10; i += 1) {
      const listed = await signedCall(api.baseUrl, { path: `${PAYINS}?cursor=${cursor(at)}`, credential: MERCHANT_A });
      expect(listed.status).toBe(400);
      expect(listed.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'cursor', code: 'invalid' }] });
    }
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).status).toBe(200);
  });

  it.each([
    ['not in the calendar', 'createdFrom=2026-02-30T00:00:00Z', 'createdFrom'],
    ['in the year 0000', 'createdFrom=0000-01-01T00:00:00Z', 'createdFrom'],
    ['moved before year 1 by its offset', 'createdTo=0001-01-01T00:00:00%2B23:59', 'createdTo'],
    ['moved past year 9999 by its offset', 'createdTo=9999-12-31T23:59:59-23:59', 'createdTo'],
  ])('refuses a date %s with 400', async (_name, query, field) => {
    const listed = await signedCall(api.baseUrl, { path: `${PAYINS}?${query}`, credential: MERCHANT_A });
    expect(listed.status).toBe(400);
    expect(listed.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field, code: 'format' }] });
  });
});
