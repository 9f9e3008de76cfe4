// Currencies the platform cannot settle or pay out: a payin in one is refused
// at creation, unless the operator enabled it for the merchant, who then
// settles it by hand; such balances are reported by ledger:check and at boot.
import pino from 'pino';
import { SqlClient } from '../src/db/sql-client';
import { runLedgerCheck } from '../src/ledger/ledger-check.command';
import { UnsettledBalancesWarning, unsettledBalances } from '../src/ledger/unsettled-balances';
import { LEDGER_INVARIANTS } from '../src/ledger-invariants';
import { runMerchantsCommand } from '../src/merchants/merchants-command';
import { SCHEMA } from '../src/schema';
import { signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { startTestApp, type TestApp } from './support/test-app';

let sequence = 0;
const createPayin = (api: TestApp, currency: string, credential = MERCHANT_A) =>
  signedCall(api.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 1500.5, currency, customerEmail: 'ada@example.com', reference: `cur-${currency}-${sequence++}` }), credential });

describe('payins in currencies the platform does not settle', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it.each(['USD', 'GBP', 'EUR', 'GHS', 'KES', 'ZAR'])('refuses a payin in %s with 422 CURRENCY_NOT_SETTLEABLE, saying what settles and the way out', async (currency) => {
    const refused = await createPayin(api, currency);
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      code: 'CURRENCY_NOT_SETTLEABLE',
      retryable: false,
      message: `This platform cannot settle or pay out ${currency}; only NGN settles. Create the payin in NGN, or ask the operator to enable ${currency} for your merchant (merchants set-unsettled-currencies), if you settle it with them outside the platform.`,
    });
  });

  it('takes NGN as ever', async () => {
    expect((await createPayin(api, 'NGN')).status).toBe(201);
  });

  it("takes the currencies the operator enabled for the merchant, that merchant's only, and reports the balance they make", async () => {
    await merchantAdmin(api).run((admin) => admin.setUnsettledCurrencies(MERCHANT_A.merchantId, ['USD']));
    const taken = await createPayin(api, 'USD');
    expect(taken.status).toBe(201);
    expect((await createPayin(api, 'EUR')).status).toBe(422);
    expect((await createPayin(api, 'USD', MERCHANT_B)).status).toBe(422);
    const reference = taken.json.reference as string;
    expect((await signedCall(api.baseUrl, { path: `/payment/api/payins/${reference}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A })).status).toBe(200);

    const client = api.app.get<SqlClient>(SqlClient);
    const { named, total } = await unsettledBalances(client);
    expect(total).toBe(1);
    // 1.5 % of $1,500.50 is the default fee: the net settles from pending to available at once in sandbox.
    expect(named).toEqual([{ merchantId: MERCHANT_A.merchantId, currency: 'USD', availableMinor: 147799n, pendingMinor: 0n, heldMinor: 0n }]);

    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    await new UnsettledBalancesWarning(client, logger).onApplicationBootstrap();
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, merchantId: MERCHANT_A.merchantId, currency: 'USD', amount: '1477.99', msg: expect.stringContaining(`${MERCHANT_A.merchantId} holds USD 1477.99 (available 1477.99, pending 0.00, held 0.00)`) }),
    ]);

    const printed: string[] = [];
    expect(await runLedgerCheck({ databaseUrl: api.config.databaseUrl, dataDir: api.config.dataDir }, SCHEMA, LEDGER_INVARIANTS, (line) => printed.push(line))).toBe(0);
    expect(printed.slice(-2)).toEqual([
      'note    1 merchant balance(s) in currencies the platform does not settle (only NGN does); the operator settles them outside the platform:',
      `          ${MERCHANT_A.merchantId} holds USD 1477.99 (available 1477.99, pending 0.00, held 0.00)`,
    ]);

    await merchantAdmin(api).run((admin) => admin.setUnsettledCurrencies(MERCHANT_A.merchantId, []));
    expect((await createPayin(api, 'USD')).status).toBe(422);
  });

  it('names at most 20 such balances at boot, then counts the rest', async () => {
    const client = api.app.get<SqlClient>(SqlClient);
    for (let i = 0; i < 22; i++) {
      await client.query("INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor) VALUES ($1, $2, 'GHS', 'available', 100)", [`merchant:MCH-MANY-${String(i).padStart(2, '0')}:GHS:available`, `MCH-MANY-${String(i).padStart(2, '0')}`]);
    }
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    await new UnsettledBalancesWarning(client, logger).onApplicationBootstrap();
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toMatchObject({ named: 20, total: 23, msg: expect.stringContaining('3 more not named') });
  });

  it('is refused in the merchants command for a currency that settles or is unknown', async () => {
    // The app's own database, which the command must not close.
    const app = api.app.get<SqlClient>(SqlClient);
    const database: SqlClient = { query: (sql, params) => app.query(sql, params), transaction: (work) => app.transaction(work), close: async () => undefined };
    const run = (args: string[]) => runMerchantsCommand(args, {}, async () => database);
    expect(await run(['set-unsettled-currencies', '--merchant-id', MERCHANT_A.merchantId, '--currencies', 'NGN'])).toEqual({
      code: 2,
      out: ['--currencies must be an array of currencies the platform does not settle: USD, GBP, EUR, GHS, KES, ZAR, comma-separated, or none.'],
    });
    expect((await run(['set-unsettled-currencies', '--merchant-id', MERCHANT_A.merchantId, '--currencies', 'KES,ZAR'])).out).toEqual([
      `${MERCHANT_A.merchantId} may collect KES, ZAR, which the platform does not settle: you settle that money with it by hand; in force on every instance within MERCHANTS_SYNC_MAX_LAG_MS.`,
    ]);
    expect((await run(['set-unsettled-currencies', '--merchant-id', MERCHANT_A.merchantId, '--currencies', 'none'])).code).toBe(0);
  });
});
