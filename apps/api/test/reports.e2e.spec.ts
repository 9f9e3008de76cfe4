// The merchants' CSV reports over HTTP, on the real app: the bytes, the
// escaping, the keyset batches and `after`, the filters, each merchant's own
// rows only, bad input as JSON, and a database failure before and after the
// first byte.
import { SqlClient } from '../src/db/sql-client';
import { seedPayins } from '../bench/seed-payins';
import { signedCall, send } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { openPgliteFromTemplate } from './support/pglite-template';
import { startTestApp, type TestApp } from './support/test-app';
import { parseCsv } from './support/csv-records';

const WINDOW = 'from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z';
const PAYINS_HEADER = 'reference,status,amount,fee,amountRefunded,currency,customerEmail,customerName,gateway,narration,provider,createdAt,paidAt,failedAt,failureReason,cursor';
const ENTRIES_HEADER = 'id,type,balance,amount,currency,objectType,reference,createdAt,cursor';

const report = (api: TestApp, name: string, query: string, credential: TestCredential = MERCHANT_A) => signedCall(api.baseUrl, { path: `/payment/api/reports/${name}.csv${query ? `?${query}` : ''}`, credential });
const rowsOf = (body: unknown) => parseCsv(body as string);

describe('reports, on PostgreSQL in batches of 10', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ REPORT_BATCH_ROWS: '10' });
    const client = api.app.get<SqlClient>(SqlClient);
    await seedPayins(client, { merchantId: MERCHANT_A.merchantId, count: 25, from: new Date('2026-01-01T00:00:00Z'), spacingMs: 1000 });
    // Merchant B's rows share A's instants, and one its reference: only the merchant tells them apart.
    await seedPayins(client, { merchantId: MERCHANT_B.merchantId, count: 3, from: new Date('2026-01-01T00:00:00Z'), spacingMs: 1000 });
    const hostile = { amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', customerName: '=HYPERLINK("http://x","y")', narration: '@SUM(1+1)', reference: '-hostile-1' };
    expect((await signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify(hostile), credential: MERCHANT_A })).status).toBe(201);
    expect((await signedCall(api.baseUrl, { path: '/payment/api/payins/-hostile-1/simulate', body: '{"outcome":"successful"}', credential: MERCHANT_A })).status).toBe(200);
  });
  afterAll(() => api.close());

  it('streams every payin of the window oldest first, as RFC 4180 CSV with CRLF, in naira with two decimals, as an attachment', async () => {
    const answer = await report(api, 'payins', WINDOW);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="payins-20000101T000000Z-21000101T000000Z.csv"');
    expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
    const text = answer.body as string;
    expect(text.startsWith(`${PAYINS_HEADER}\r\n`)).toBe(true);
    const [header, ...rows] = rowsOf(text);
    expect(header?.join(',')).toBe(PAYINS_HEADER);
    expect(rows.map((row) => row[0])).toEqual([...Array.from({ length: 25 }, (_, i) => `seed-${i + 1}`), "'-hostile-1"]);
    // seed-1: 100 + 7919 kobo, its fee 1.5 % of it, rounded down; seed-10 failed.
    expect(rows[0]).toEqual(['seed-1', 'SUCCESSFUL', '80.19', '1.20', '0.00', 'NGN', 'customer1@example.com', 'Ada Obi 1', 'card', 'Order 1', 'sandbox', '2026-01-01T00:00:00.000Z', '2026-01-01T00:02:00.000Z', '', '', expect.any(String)]);
    expect(rows[9]?.slice(0, 4)).toEqual(['seed-10', 'FAILED', '792.90', '']);
    // Quoted only where RFC 4180 needs it: a comma or a quote in the name.
    expect(text).toContain(',"Obi, Ada ""3""",');
  });

  it("puts a single quote before a merchant's or customer's text that a spreadsheet would run as a formula", async () => {
    const rows = rowsOf((await report(api, 'payins', WINDOW)).body);
    const hostile = rows.find((row) => row[0] === "'-hostile-1");
    expect(hostile?.slice(0, 10)).toEqual(["'-hostile-1", 'SUCCESSFUL', '1500.50', '22.51', '0.00', 'NGN', 'ada@example.com', `'=HYPERLINK("http://x","y")`, null, "'@SUM(1+1)"].map((v, i) => (i === 8 ? expect.any(String) : v)));
  });

  it('leaves our own negative amounts as numbers in balance entries', async () => {
    const [header, ...rows] = rowsOf((await report(api, 'balance-entries', `${WINDOW}&currency=NGN`)).body);
    expect(header?.join(',')).toBe(ENTRIES_HEADER);
    expect(rows.map((row) => [row[1], row[2], row[3], row[6]])).toEqual([
      ['payin_credit', 'pending', '1500.50', "'-hostile-1"],
      ['payin_fee', 'pending', '-22.51', "'-hostile-1"],
      ['settlement', 'pending', '-1477.99', "'-hostile-1"],
      ['settlement', 'available', '1477.99', "'-hostile-1"],
    ]);
  });

  it('continues after the row whose cursor is given as `after`, header first, without the rows before', async () => {
    const whole = rowsOf((await report(api, 'payins', WINDOW)).body);
    const cursor = whole[12]?.at(-1) as string;
    const rest = rowsOf((await report(api, 'payins', `${WINDOW}&after=${cursor}`)).body);
    expect(rest).toEqual([whole[0], ...whole.slice(13)]);
    const last = whole.at(-1)?.at(-1) as string;
    expect(rowsOf((await report(api, 'payins', `${WINDOW}&after=${last}`)).body)).toEqual([whole[0]]);
  });

  it('filters by status and currency, and by the window, `to` exclusive', async () => {
    const failed = rowsOf((await report(api, 'payins', `${WINDOW}&status=FAILED`)).body).slice(1);
    expect(failed.map((row) => row[0])).toEqual(['seed-10', 'seed-20']);
    expect(rowsOf((await report(api, 'payins', `${WINDOW}&currency=USD`)).body)).toHaveLength(1);
    const window = rowsOf((await report(api, 'payins', 'from=2026-01-01T00:00:01Z&to=2026-01-01T00:00:03Z')).body).slice(1);
    expect(window.map((row) => row[0])).toEqual(['seed-2', 'seed-3']);
  });

  it("gives each merchant its own rows only, even where their references and instants are the same", async () => {
    const b = rowsOf((await report(api, 'payins', WINDOW, MERCHANT_B)).body).slice(1);
    expect(b.map((row) => row[0])).toEqual(['seed-1', 'seed-2', 'seed-3']);
    expect(rowsOf((await report(api, 'balance-entries', WINDOW, MERCHANT_B)).body)).toHaveLength(1);
    // A's cursor given to B's report still gives B's rows only.
    const aCursor = rowsOf((await report(api, 'payins', WINDOW)).body)[1]?.at(-1) as string;
    expect(rowsOf((await report(api, 'payins', `${WINDOW}&after=${aCursor}`, MERCHANT_B)).body).slice(1).map((row) => row[0])).toEqual(['seed-2', 'seed-3']);
  });

  it.each([
    ['no window', '', ['from', 'to']],
    ['a date without a time zone', 'from=2026-01-01T00:00:00&to=2026-02-01T00:00:00Z', ['from']],
    ['an empty window', 'from=2026-02-01T00:00:00Z&to=2026-02-01T00:00:00Z', ['to']],
    ['an unknown parameter', `${WINDOW}&limit=5`, ['limit']],
    ['a status the report does not have', `${WINDOW}&status=PAID`, ['status']],
    ['a cursor it did not write', `${WINDOW}&after=WyJ4Il0`, ['after']],
    ['a filter of another report', `${WINDOW}&payinReference=order-1`, ['payinReference']],
  ])('answers %s with 400 VALIDATION_FAILED as JSON, naming each field', async (_name, query, fields) => {
    const answer = await report(api, 'payins', query);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.json).toMatchObject({ code: 'VALIDATION_FAILED', retryable: false });
    expect((answer.json.details as Array<{ field: string }>).map((detail) => detail.field)).toEqual(fields);
  });

  it('answers 404 for a report that does not exist, and 401 unsigned', async () => {
    const unknown = await signedCall(api.baseUrl, { path: `/payment/api/reports/settlements-typo.csv?${WINDOW}`, credential: MERCHANT_A });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect((await send(api.baseUrl, { method: 'GET', path: `/payment/api/reports/payins.csv?${WINDOW}` })).status).toBe(401);
  });

  it('serves the payouts and refunds reports with their headers', async () => {
    expect(rowsOf((await report(api, 'payouts', WINDOW)).body)[0]?.join(',')).toBe(
      'reference,status,amount,fee,currency,bankCode,accountNumber,accountName,narration,batchReference,createdAt,completedAt,reversedAt,failureReason,cancellationReason,cursor',
    );
    expect(rowsOf((await report(api, 'refunds', `${WINDOW}&payinReference=-hostile-1`)).body)[0]?.join(',')).toBe(
      'reference,payinReference,status,amount,feeReturned,currency,fundedFrom,reason,merchantNote,customerNote,createdAt,completedAt,failureReason,cursor',
    );
  });
});

describe('a report whose database fails', () => {
  let api: TestApp;
  /** Report statements from now on fail, after this many more succeed. */
  let failAfter = Infinity;
  beforeAll(async () => {
    const client = await openPgliteFromTemplate();
    const failing = async <R>(sql: string, params?: unknown[]) => {
      if (sql.includes('ORDER BY created_at, reference LIMIT') && failAfter-- <= 0) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      return client.query<R>(sql, params);
    };
    api = await startTestApp({ REPORT_BATCH_ROWS: '10' }, { overrides: { payinStore: { ...client, query: failing, transaction: (work) => client.transaction(work), close: () => client.close() } } });
    await seedPayins(client, { merchantId: MERCHANT_A.merchantId, count: 25 });
  });
  afterAll(() => api.close());

  it('before the first byte, answers 503 STORE_UNAVAILABLE as JSON', async () => {
    failAfter = 0;
    const answer = await report(api, 'payins', WINDOW);
    expect(answer.status).toBe(503);
    expect(answer.json).toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true });
  });

  it('after it, cuts the transfer: the client sees an error, never a short file that ended well', async () => {
    failAfter = 1;
    await expect(report(api, 'payins', WINDOW)).rejects.toThrow(/terminated|other side closed|aborted/);
    failAfter = Infinity;
  });
});
