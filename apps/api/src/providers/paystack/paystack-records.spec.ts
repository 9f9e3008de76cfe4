// The records adapter on the list examples of Paystack's own documentation
// (tools/fake-paystack/fixtures, sources in SOURCES.md), served over real HTTP:
// each page read to the end, by page count or cursor, and a listing it cannot
// read to its end never resolved as a part of itself.
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import pino from 'pino';
import { ServiceMetrics } from '../../metrics/service-metrics';
import { ProviderCircuits } from '../../upstream/provider-circuits';
import { ProviderUnavailable, UpstreamClient } from '../../upstream/upstream-client';
import { PaystackApi } from './paystack-api';
import { PaystackRecords } from './paystack-records';

const FIXTURES = path.resolve(__dirname, '../../../../../tools/fake-paystack/fixtures');
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const WINDOW = { from: new Date('2016-01-01T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') };
const options = (maxPages = 5) => ({ signal: AbortSignal.timeout(5000), pageSize: 50, maxPages, timeoutMs: 2000 });

/** Answers each path with `answer(query)`; records every query string asked. */
async function serve(answer: (pathname: string, query: URLSearchParams) => Record<string, unknown>): Promise<{ records: PaystackRecords; server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    asked.push(`${url.pathname}?${url.searchParams.toString()}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer(url.pathname, url.searchParams)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const circuits = new ProviderCircuits({ failures: 5, openSeconds: 30, windowSeconds: 60, sources: 1, enquiryBanks: 1 }, Date.now);
  const client = new UpstreamClient({ provider: 'paystack', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers: {}, timeoutMs: 2000, retries: 0, circuits, metrics: new ServiceMetrics(), logger: pino({ level: 'silent' }) });
  return { records: new PaystackRecords(new PaystackApi(client, 'sk_test_x')), server, asked };
}

describe('PaystackRecords on the documented list examples', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => (server.closeAllConnections(), server.close())));

  it('reads List Transactions by its cursor, for requested_amount, and ends where meta.next is null', async () => {
    const page = fixture('transaction-list.200.json');
    const { records, server, asked } = await serve((_path, query) => (query.get('next') ? { ...page, data: [], meta: { next: null, previous: null, perPage: 50 } } : page));
    servers.push(server);
    const listed = await records.list('payin', WINDOW, options());
    expect(listed).toEqual([expect.objectContaining({ theirReference: 're4lyvq3s3', providerReference: null, amountMinor: 30050n, currency: 'NGN', outcome: 'paid', status: 'success' })]);
    expect(asked).toEqual([expect.stringContaining('page=1'), expect.stringContaining('use_cursor=true&next=dW5kZWZpbmVkOjQwMTM3MDk2MzU%3D')]);
    expect(asked[0]).toContain(`from=${encodeURIComponent(WINDOW.from.toISOString())}`);
  });

  it('reads List Transfers and List Settlements to their page count; a transfer without a reference is named by its code', async () => {
    const { records, server } = await serve((pathname) => fixture(pathname === '/transfer' ? 'transfer-list.200.json' : 'settlement-list.200.json'));
    servers.push(server);
    const transfers = await records.list('payout', WINDOW, options());
    expect(transfers.map((t) => [t.theirReference, t.providerReference, t.outcome])).toEqual([['TRF_1ptvuv321ahaa7q', null, 'in_flight'], ['TRF_5pr8ypzb0htx0cn', null, 'in_flight']]);
    const settlements = await records.settlements(WINDOW, options());
    expect(settlements).toHaveLength(15);
    expect(settlements[0]).toEqual({ theirReference: '3090024', status: 'success', currency: 'NGN', totalMinor: 995n, feesMinor: 5n, processedMinor: 1000n, settledOn: '2022-11-09T00:00:00.000Z' });
  });

  it('rejects a listing longer than its page bound, and one whose page cannot be read, rather than answer a part of it', async () => {
    const page = fixture('transfer-list.200.json') as { meta: Record<string, unknown> };
    const endless = await serve(() => ({ ...page, meta: { ...page.meta, pageCount: 99 } }));
    servers.push(endless.server);
    await expect(endless.records.list('payout', WINDOW, options(3))).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(endless.asked).toHaveLength(3);
    const broken = await serve(() => ({ status: true, data: [{ id: 1, status: 'success' }], meta: { pageCount: 1 } }));
    servers.push(broken.server);
    await expect(broken.records.list('payout', WINDOW, options())).rejects.toBeInstanceOf(ProviderUnavailable);
  });
});
