// kill -9 while payouts are being sent: the built service, its process killed while the sandbox provider
// holds its answers, then started again on the same PostgreSQL database.
import { Pool } from 'pg';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A } from './support/credentials';
import { payoutMerchantsFile } from './support/payout-merchants';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';

const PAYOUTS = 20;
/** Status checks a second apart, and a transfer the provider never received sent again after 10 s: so that the test sees the recovery within seconds. */
/** Five payouts sent at once: the rest wait QUEUED behind them when the process dies. */
const QUICK_RECOVERY = { PAYOUT_STATUS_CHECK_SCHEDULE: '1,2', PAYOUT_STATUS_CHECK_INTERVAL_MS: '200', PAYOUT_RESEND_GRACE_SECONDS: '10', PAYOUT_DISPATCH_CONCURRENCY: '5' };

/** Waits for `done` to hold of what `read` answers, looking every 20 ms, for at most `ms`: the event is in another process, whose clock a test cannot move. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
  }
}

describeWithStore('PostgreSQL', DATABASE_URL, 'payouts across a kill -9 of the service', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Pool;
  const services: BuiltService[] = [];
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_payout_kill');
    db = new Pool({ connectionString: database.url });
    // The database is dropped WITH (FORCE) at the end: a connection the pool is still closing is ended by the server, which is no failure.
    db.on('error', () => undefined);
  });
  afterAll(async () => {
    for (const service of services) await service.dispose();
    await db.end();
    await database.drop();
  });

  it('brings every payout to exactly one final state after a restart, with exactly one transfer each at the provider', async () => {
    const merchantsFile = payoutMerchantsFile();
    // The sandbox provider records each transfer, then holds its answer for a minute: the process dies while it waits.
    // Its status checks are due a second after each send, but this instance's check job would first run 10 minutes
    // after it started: however slowly the machine goes, nothing settles a payout before the kill but the restart.
    const first = await startBuiltService(
      { MERCHANTS_FILE: merchantsFile, SANDBOX_PAYOUT_DELAY_MS: '60000', PAYOUT_PROVIDER_TIMEOUT_MS: '120000', ...QUICK_RECOVERY, PAYOUT_STATUS_CHECK_INTERVAL_MS: '600000' },
      { databaseUrl: database.url },
    );
    services.push(first);
    const call = (baseUrl: string, path: string, body?: unknown) => signedCall(baseUrl, { path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    await call(first.baseUrl, '/payment/api/payins', { amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'kill-funds' });
    expect((await call(first.baseUrl, '/payment/api/payins/kill-funds/simulate', { outcome: 'successful' })).status).toBe(200);
    const enquiryId = (await call(first.baseUrl, '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' })).json.enquiryId as string;
    for (let i = 0; i < PAYOUTS; i++) {
      expect((await call(first.baseUrl, '/payment/api/payouts', { reference: `kill-${i}`, amount: 1000, currency: 'NGN', enquiryId, narration: `Kill ${i}` })).status).toBe(201);
    }
    const received = await until(async () => Number((await db.query('SELECT count(*)::int AS n FROM sandbox_payout_transfers')).rows[0].n), (n) => n >= 5, 20_000);
    expect(received).toBeGreaterThanOrEqual(5);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM payouts GROUP BY status ORDER BY status')).rows;
    expect(atKill.find((row) => row.status === 'PROCESSING')?.n).toBeGreaterThanOrEqual(5);

    const second = await startBuiltService({ MERCHANTS_FILE: merchantsFile, SANDBOX_PAYOUT_DELAY_MS: '0', ...QUICK_RECOVERY }, { databaseUrl: database.url });
    services.push(second);
    const final = await until(
      async () => (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM payouts GROUP BY status')).rows,
      (rows) => rows.length === 1 && rows[0]?.status === 'SUCCESSFUL',
      60_000,
    );
    expect(final).toEqual([{ status: 'SUCCESSFUL', n: PAYOUTS }]);
    const transfers = (await db.query<{ reference: string; sends: number }>('SELECT p.reference, t.sends FROM payouts p JOIN sandbox_payout_transfers t ON t.provider_reference = p.provider_reference ORDER BY p.reference')).rows;
    expect(transfers).toHaveLength(PAYOUTS);
    expect(transfers.every((transfer) => transfer.sends === 1)).toBe(true);
    expect(Number((await db.query('SELECT count(*)::int AS n FROM sandbox_payout_transfers')).rows[0].n)).toBe(PAYOUTS);
    const check = await call(second.baseUrl, '/payment/api/balance');
    expect(check.json).toEqual({ currency: 'NGN', available: 100_000 - PAYOUTS * 1025, pending: 0, held: 0 });
  }, 120_000);
});
