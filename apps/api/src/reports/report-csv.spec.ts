import type { SqlQueryable } from '../db/sql-client';
import { ReportReader } from './report-csv';
import { REPORTS } from './reports';

const ENTRIES = REPORTS.get('balance-entries');
const REQUEST = { merchantId: 'MCH-1', from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z'), filters: {}, now: new Date('2026-02-01T00:00:00Z') };

/** A store of endless entries: every statement answers a full batch after the position it is given, and is counted. */
function endlessEntries(batchRows: number) {
  const statements: unknown[][] = [];
  const client: SqlQueryable = {
    query: async <R>(_sql: string, params: unknown[] = []) => {
      statements.push(params);
      const first = params.length > 4 ? Number(params[4]) : 0;
      const rows = Array.from({ length: batchRows }, (_, i) => ({ id: String(first + i + 1), type: 'settlement', kind: 'available', amount_minor: '100', currency: 'NGN', object_type: 'payin', object_id: `order-${first + i + 1}`, created_at: '2026-01-01T00:00:00.000Z' }));
      return { rows: rows as R[] };
    },
  };
  return { client, statements };
}

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('a report stream', () => {
  if (!ENTRIES) throw new Error('balance-entries missing');

  it('reads the next batch only as the reader takes the last: a reader that stops holds the stream at a few batches, whatever the window', async () => {
    const { client, statements } = endlessEntries(100);
    const stream = await new ReportReader(client, 100).open(ENTRIES, REQUEST);
    // Starts it filling its buffer, as a response that can take more does.
    stream.read(0);
    await ticks(50);
    const filled = statements.length;
    // 64 KiB of buffer over ~100-byte records: a few batches of 100, never the endless rest.
    expect(filled).toBeGreaterThan(1);
    expect(filled).toBeLessThan(12);
    await ticks(50);
    expect(statements.length).toBe(filled);
    const taken = (stream.read() as Buffer).toString();
    expect(taken.startsWith('id,type,balance,amount,currency,objectType,reference,createdAt,cursor\r\n1,settlement,')).toBe(true);
    await ticks(50);
    expect(statements.length).toBeGreaterThan(filled);
    expect(statements.length).toBeLessThan(filled + 12);
    stream.destroy();
  });

  it('asks each batch after the last row of the one before, by its creation and key', async () => {
    const { client, statements } = endlessEntries(10);
    const stream = await new ReportReader(client, 10).open(ENTRIES, REQUEST);
    stream.read(0);
    await ticks(5);
    expect(statements[0]).toEqual(['MCH-1', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 10]);
    expect(statements[1]).toEqual(['MCH-1', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '10', 10]);
    stream.destroy();
  });

  it('sends the header alone at once when the first batch is slow, then the rows', async () => {
    let answer: (rows: { rows: unknown[] }) => void = () => undefined;
    const client: SqlQueryable = { query: <R>() => new Promise<{ rows: R[] }>((resolve) => (answer = resolve as never)) };
    const stream = await new ReportReader(client, 10).open(ENTRIES, REQUEST, async () => undefined);
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const ended = new Promise((resolve) => stream.on('end', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(['id,type,balance,amount,currency,objectType,reference,createdAt,cursor\r\n']);
    answer({ rows: [{ id: '1', type: 'settlement', kind: 'available', amount_minor: '100', currency: 'NGN', object_type: 'payin', object_id: 'o-1', created_at: '2026-01-01T00:00:00.000Z' }] });
    await ended;
    expect(chunks[1]).toMatch(/^1,settlement,available,1\.00,NGN,payin,o-1,2026-01-01T00:00:00\.000Z,/);
  });
});
