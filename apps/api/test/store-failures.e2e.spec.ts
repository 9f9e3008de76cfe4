// A bug met while using a store is a bug, answered 500 with its stack logged;
// only the store's own failure is a 503 that marks it down.
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

  it('gets 400 with details, never reaches the store, and leaves readiness at 200', async () => {
    const planted = Buffer.from(JSON.stringify([8.64e15 + 1, 'order-1', 'AAAAAAAAAAA'])).toString('base64url');
    for (let i = 0; i < 20; i += 1) {
      const listed = await signedCall(api.baseUrl, { path: `${PAYINS}?cursor=${planted}`, credential: MERCHANT_A });
      expect(listed.status).toBe(400);
      expect(listed.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'cursor', code: 'invalid' }] });
    }
    expect((await send(api.baseUrl, { method: 'GET', path: '/payment/health' })).status).toBe(200);
  });

  it('refuses a createdFrom that is not in the calendar', async () => {
    const listed = await signedCall(api.baseUrl, { path: `${PAYINS}?createdFrom=2026-02-30T00:00:00Z`, credential: MERCHANT_A });
    expect(listed.status).toBe(400);
    expect(listed.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'createdFrom', code: 'format' }] });
  });
});
