// Two database roles, by docs/operations.md "Database roles": the owner migrates (DATABASE_MIGRATION_URL), and requests
// run as a role with row privileges only (DATABASE_URL). The operator's SQL is read from the guide and run with psql,
// the service boots on the two, and payins, payouts, refunds, webhooks and merchant changes all work on the runtime
// role, which cannot change the schema.
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { SqlClient } from '../src/db/sql-client';
import { openPostgres } from '../src/db/sql-clients';
import { JobRunner } from '../src/jobs/job-runner';
import { checkLedger } from '../src/ledger-invariants';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { RefundDispatcher } from '../src/refunds/refund-dispatcher';
import { SCHEMA } from '../src/schema';
import { signedCall } from './support/api-client';
import { MERCHANT_A, type TestCredential } from './support/credentials';
import { merchantAdmin } from './support/merchant-changes';
import { payoutMerchantsFile } from './support/payout-merchants';
import { DATABASE_URL, createPrivateDatabase, describeInProduction, describeWithStore } from './support/stores';
import { startProductionTestApp, startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const OPERATIONS_GUIDE = path.resolve(__dirname, '../../../docs/operations.md');
// The version check runs twice a minute: within the suite, only the announcement on the LISTEN can bring a change.
const MAX_LAG_MS = 60_000;

/** The guide's SQL for the roles: the first sql block of its "Database roles" section. */
function rolesSqlOfTheGuide(): string {
  const guide = fs.readFileSync(OPERATIONS_GUIDE, 'utf8');
  const section = guide.slice(guide.indexOf('\n## Database roles\n'));
  const block = /```sql\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1)));
  if (!section.startsWith('\n## Database roles\n') || !block?.[1]) throw new Error('docs/operations.md has no sql block under "## Database roles"');
  return block[1];
}

/** A URL of `database` on the test's PostgreSQL, as `role`. */
function urlAs(databaseUrl: string, role: string): string {
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = '';
  return url.toString();
}

describeWithStore('PostgreSQL', DATABASE_URL, 'an owner that migrates and a runtime role that serves', () => {
  const suffix = `${process.pid}_${Date.now()}`;
  const owner = `paysign_owner_${suffix}`;
  const runtime = `paysign_app_${suffix}`;
  let database: { url: string; drop: () => Promise<void> };
  let ownerUrl: string;
  let runtimeUrl: string;
  let receiver: WebhookReceiver;
  let api: TestApp;
  let admin: Pool;

  beforeAll(async () => {
    const { Pool } = await import('pg');
    admin = new Pool({ connectionString: DATABASE_URL });
    database = await createPrivateDatabase('paysign_roles');
    const name = new URL(database.url).pathname.slice(1);
    ownerUrl = urlAs(database.url, owner);
    runtimeUrl = urlAs(database.url, runtime);
    // The owner and its database exist, and an earlier release migrated all but the last migration as it: the guide's
    // grants then cover the tables there are, and its default privileges those the service creates at its next boot.
    await admin.query(`CREATE ROLE ${owner} LOGIN`);
    await admin.query(`ALTER DATABASE ${name} OWNER TO ${owner}`);
    await (await openPostgres(ownerUrl, { migrations: SCHEMA.slice(0, -1) })).close();
    const psql = spawnSync('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-v', `owner=${owner}`, '-v', `app=${runtime}`, '-v', 'app_password=not-checked-by-trust-auth', '-d', database.url, '-f', '-'], {
      input: rolesSqlOfTheGuide(),
      encoding: 'utf8',
    });
    if (psql.status !== 0) throw new Error(`the guide's SQL failed: ${psql.stderr}`);

    receiver = await WebhookReceiver.start();
    api = await startTestApp(
      { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: ownerUrl, MERCHANTS_FILE: payoutMerchantsFile(receiver.url), SANDBOX_PAYOUT_DELAY_MS: '0', MERCHANTS_SYNC_MAX_LAG_MS: String(MAX_LAG_MS) },
      { startJobs: false },
    );
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
    await database?.drop();
    // A role is dropped once nothing is left that it owns or was granted: the database went with all of it.
    await admin?.query(`DROP ROLE IF EXISTS ${runtime}`);
    await admin?.query(`DROP ROLE IF EXISTS ${owner}`);
    await admin?.end();
  });

  const call = (credential: TestCredential, method: string, pathAndQuery: string, body?: unknown) =>
    signedCall(api.baseUrl, { method, path: pathAndQuery, credential, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const runJob = async (job: 'webhook-delivery' | 'payout-dispatch' | 'refund-dispatch') => {
    await api.app.get(JobRunner).runNow(job);
    await api.app.get(PayoutDispatcher).idle();
    await api.app.get(RefundDispatcher).idle();
  };

  it('migrates as the owner, serves as the runtime role, and says so at boot', async () => {
    expect(api.logs).toContainEqual(expect.objectContaining({ level: 30, msg: 'applying payin store migration', migration: SCHEMA[SCHEMA.length - 1]?.id }));
    expect(api.logs).toContainEqual(expect.objectContaining({ level: 30, migrationRole: owner, runtimeRole: runtime, runtimeCanAlterSchema: false }));
    const { rows } = await api.app.get<SqlClient>(SqlClient).query<{ role: string }>('SELECT current_user AS role');
    expect(rows).toEqual([{ role: runtime }]);
  });

  it('takes a payin, delivers its webhook, sends a payout and a refund, all as the runtime role, and the ledger holds', async () => {
    const reference = `roles-${randomUUID().slice(0, 8)}`;
    expect((await call(MERCHANT_A, 'POST', '/payment/api/payins', { amount: 10_000, currency: 'NGN', customerEmail: 'ada@example.com', reference })).status).toBe(201);
    expect((await call(MERCHANT_A, 'POST', `/payment/api/payins/${reference}/simulate`, { outcome: 'successful' })).status).toBe(200);
    await runJob('webhook-delivery');
    const [delivery] = await receiver.waitFor(reference, 1);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'payin.successful' });

    const enquiry = await call(MERCHANT_A, 'POST', '/payment/merchant-api/account/inquiry', { bankCode: '058', accountNumber: '0123456785' });
    const payout = await call(MERCHANT_A, 'POST', '/payment/api/payouts', { reference: `${reference}-po`, amount: 1000, currency: 'NGN', enquiryId: enquiry.json.enquiryId, narration: 'Roles' });
    expect(payout.status).toBe(201);
    await runJob('payout-dispatch');
    expect((await call(MERCHANT_A, 'GET', `/payment/api/payouts/${reference}-po`)).json).toMatchObject({ status: 'SUCCESSFUL' });

    const refund = await call(MERCHANT_A, 'POST', '/payment/api/refunds', { reference: `${reference}-rf`, payinReference: reference, amount: 500 });
    expect(refund.status).toBe(201);
    await runJob('refund-dispatch');
    expect((await call(MERCHANT_A, 'GET', `/payment/api/refunds/${reference}-rf`)).json).toMatchObject({ status: 'SUCCESSFUL' });
    expect(await call(MERCHANT_A, 'GET', '/payment/api/balance')).toMatchObject({ json: { available: 10_000 - 1025 - 500, held: 0 } });
    expect(await checkLedger(api.app.get<SqlClient>(SqlClient))).toEqual([]);
  });

  it('changes merchants as the runtime role, and the operator\'s command, migrating as the owner, revokes a key the service then refuses', async () => {
    const merchantId = `MCH-ROLES-${randomUUID().slice(0, 8)}`;
    const added = await merchantAdmin(api).run((merchants) => merchants.add({ merchantId, tenantId: 'TEN-ROLES', name: 'Roles Shop' }));
    const merchant = { apiKey: added.apiKey, secretKey: added.secretKey, merchantId, tenantId: added.tenantId };
    const endpoint = await call(merchant, 'POST', '/payment/api/webhook-endpoints', { url: receiver.url, enabledEvents: '*' });
    expect(endpoint.status).toBe(201);

    expect(fs.existsSync(MAIN)).toBe(true);
    const before = Date.now();
    // Run beside the service, which keeps serving meanwhile (a synchronous spawn would stop it).
    const command = await promisify(execFile)(process.execPath, [MAIN, 'merchants', 'revoke-key', '--api-key', merchant.apiKey, '--actor', 'ops@test'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: ownerUrl },
    });
    expect(command.stderr).toBe('');
    // Announced, and heard on the LISTEN the service keeps on the owner's direct connection: the wait is for the load that revoked
    // this key (the add's own announcement may be logged after `before`, on a busy machine).
    const announced = () =>
      api.logs.find((line) => line.msg === 'merchants loaded' && line.reason === 'announced' && Number(line.time) >= before && (line.keysRevoked as string[] | undefined)?.includes(merchant.apiKey));
    for (const deadline = Date.now() + 10_000; !announced() && Date.now() < deadline; ) await new Promise((resolve) => setImmediate(resolve));
    expect(announced()).toBeDefined();
    expect((await call(merchant, 'GET', '/payment/merchant-api/banks')).status).toBe(401);

    const check = spawnSync(process.execPath, [MAIN, 'ledger-check'], { encoding: 'utf8', env: { PATH: process.env.PATH, DATABASE_URL: runtimeUrl } });
    expect([check.status, check.stdout]).toEqual([0, expect.stringContaining('ledger check:')]);
  });

  it('refuses the runtime role every change to the schema, and the ledger\'s trigger stands', async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: runtimeUrl });
    await client.connect();
    try {
      const refused = async (sql: string) => ((await client.query(sql).then(() => 'allowed', (error: Error) => error.message)) as string);
      expect(await refused('DROP TABLE payins')).toBe('must be owner of table payins');
      expect(await refused('ALTER TABLE payins ADD COLUMN mischief text')).toBe('must be owner of table payins');
      expect(await refused('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_immutable')).toBe('must be owner of table ledger_entries');
      expect(await refused('TRUNCATE ledger_entries')).toBe('permission denied for table ledger_entries');
      expect(await refused('CREATE TABLE mischief (id int)')).toBe('permission denied for schema public');
      expect(await refused('UPDATE ledger_entries SET amount_minor = amount_minor + 1')).toBe('ledger entries are immutable: post a correcting journal instead');
    } finally {
      await client.end();
    }
  });

  it('grants the runtime role what a later migration creates, by the default privileges', async () => {
    const asOwner = await openPostgres(ownerUrl, { migrations: [] });
    const asRuntime = await openPostgres(runtimeUrl, { migrations: [] });
    try {
      await asOwner.query('CREATE TABLE a_later_migration (id bigserial PRIMARY KEY, note text)');
      await asRuntime.query("INSERT INTO a_later_migration (note) VALUES ('granted')");
      expect((await asRuntime.query('SELECT id::int AS id, note FROM a_later_migration')).rows).toEqual([{ id: 1, note: 'granted' }]);
    } finally {
      await asOwner.query('DROP TABLE IF EXISTS a_later_migration');
      await Promise.all([asOwner.close(), asRuntime.close()]);
    }
  });

  it('boots a second instance on the runtime role alone once the schema is current: it has nothing to migrate', async () => {
    const second = await startTestApp({ DATABASE_URL: runtimeUrl, MERCHANTS_FILE: payoutMerchantsFile(receiver.url) }, { startJobs: false });
    try {
      expect(second.logs).not.toContainEqual(expect.objectContaining({ msg: 'applying payin store migration' }));
      expect(second.logs).toContainEqual(expect.objectContaining({ migrationRole: runtime, runtimeRole: runtime, runtimeCanAlterSchema: false }));
      expect((await signedCall(second.baseUrl, { path: '/payment/api/balance', credential: MERCHANT_A })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses a migration URL that names another database than DATABASE_URL', async () => {
    const other = await createPrivateDatabase('paysign_roles_other');
    try {
      await expect(openPostgres(database.url, { migrationUrl: other.url, migrations: SCHEMA })).rejects.toThrow(
        /DATABASE_MIGRATION_URL names the database "paysign_roles_other_\w+" and DATABASE_URL the database "paysign_roles_\w+": both must name the one database/,
      );
    } finally {
      await other.drop();
    }
  });
});

describeInProduction('one role for both, in production', () => {
  it('boots, and warns that the role serving requests can change the schema', async () => {
    const api = await startProductionTestApp();
    try {
      expect(api.logs).toContainEqual(
        expect.objectContaining({ level: 40, runtimeCanAlterSchema: true, msg: expect.stringContaining('give DATABASE_URL a role with row privileges only and DATABASE_MIGRATION_URL the owner') }),
      );
    } finally {
      await api.close();
    }
  });
});
