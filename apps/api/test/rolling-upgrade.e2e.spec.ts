// A rolling upgrade, and its rollback: the previous release, built from git
// as an operator deploys it, runs beside this build on one PostgreSQL
// database that this build migrated, and on one Redis. Each reads and pays
// what the other wrote.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContractValidator } from '@paysign/contracts/testing';
import { signedCall, type ApiResponse } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { PREVIOUS_RELEASE_BUILD_TIMEOUT_MS, buildPreviousRelease, describeWithPreviousRelease } from './support/previous-release';
import { DATABASE_URL, REDIS_URL, createPrivateDatabase, describeWithStore } from './support/stores';

const PAYINS = '/payment/api/payins';
const MAIN = path.resolve(__dirname, '../dist/main.js');

/** The service as it answers, and the contract it answers by: each release has its own. */
interface Release {
  service: BuiltService;
  contract?: ContractValidator;
}

const create = (release: Release, reference: string, amount: number) =>
  signedCall(release.service.baseUrl, { path: PAYINS, body: JSON.stringify({ amount, currency: 'NGN', customerEmail: 'ada@example.com', customerName: 'Ada Obi', reference }), credential: MERCHANT_A, contract: release.contract });
const read = (release: Release, reference: string) => signedCall(release.service.baseUrl, { path: `${PAYINS}/${reference}`, credential: MERCHANT_A, contract: release.contract });
const pay = (release: Release, reference: string) =>
  signedCall(release.service.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A, contract: release.contract });

/**
 * Merchant A's entry alone. A release refuses a merchants file with a field it
 * does not know, and merchant B opts in to events, which a release may not know
 * of: a file for two releases holds only what both read, as the operations guide says.
 */
function merchantsFileForBothReleases(): string {
  const merchants = JSON.parse(fs.readFileSync(TEST_MERCHANTS_FILE, 'utf8')) as Array<{ merchantId: string }>;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-merchants-')), 'merchants.json');
  fs.writeFileSync(file, JSON.stringify(merchants.filter((merchant) => merchant.merchantId === MERCHANT_A.merchantId)));
  return file;
}

function expectStatus(response: ApiResponse, status: number): Record<string, unknown> {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.json)}`);
  return response.json;
}

describeWithStore('Redis', REDIS_URL, 'a rolling upgrade', () =>
  describeWithStore('PostgreSQL', DATABASE_URL, 'on PostgreSQL', () =>
    describeWithPreviousRelease('the previous release beside this one', (previousRelease) => {
      const run = `${process.pid}-${Date.now()}`;
      // What both releases are given, as the operator gives every instance of one deployment: one Redis under one prefix
      // of this run's own, and one public origin, so that both build the same checkout links.
      const deployment = {
        MERCHANTS_FILE: merchantsFileForBothReleases(),
        REDIS_URL,
        REDIS_KEY_PREFIX: `paysign-upgrade-${run}:`,
        PUBLIC_BASE_URL: 'https://pay.example.com',
        CHECKOUT_TOKEN_SECRET: 'rolling-upgrade-checkout-token-secret-0123456789',
        RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '1000000',
      };
      let database: { url: string; drop: () => Promise<void> };
      let next: Release;
      let previous: Release;

      beforeAll(async () => {
        const folder = await buildPreviousRelease(previousRelease);
        database = await createPrivateDatabase('paysign_upgrade');
        // This build first: it migrates the database to its schema, as the first new instance of an upgrade does.
        next = { service: await startBuiltService(deployment, { databaseUrl: database.url }) };
        previous = { service: await startBuiltService(deployment, { databaseUrl: database.url, release: folder }), contract: new ContractValidator(path.join(folder, 'openapi/payment-api.yaml')) };
      }, PREVIOUS_RELEASE_BUILD_TIMEOUT_MS);

      afterAll(async () => {
        for (const release of [previous, next]) await release?.service.dispose();
        await database?.drop();
        fs.rmSync(path.dirname(deployment.MERCHANTS_FILE), { recursive: true, force: true });
      });

      it('boots on the schema this build migrated, and is ready', async () => {
        expect(next.service.logs()).toContainEqual(expect.objectContaining({ msg: 'applying payin store migration' }));
        // It found every migration it knows already applied.
        expect(previous.service.logs()).not.toContainEqual(expect.objectContaining({ msg: 'applying payin store migration' }));
        for (const { service } of [next, previous]) expect((await fetch(`${service.baseUrl}/payment/health/ready`)).status).toBe(200);
      });

      it('pays a payin it created, which this build then reads as it was written', async () => {
        const reference = `upgrade-from-previous-${run}`;
        const created = expectStatus(await create(previous, reference, 1500.5), 201);
        expect(expectStatus(await read(previous, reference), 200)).toEqual(created);
        const paid = expectStatus(await pay(previous, reference), 200);
        expect(paid).toMatchObject({ reference, status: 'SUCCESSFUL', amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', customerName: 'Ada Obi' });

        const readByNext = expectStatus(await read(next, reference), 200);
        // Every field the previous release answers, with the same value; this build may answer more.
        expect(readByNext).toMatchObject(paid);
        expect(readByNext).toMatchObject({ status: 'SUCCESSFUL', amount: 1500.5, paidAt: paid.paidAt });
      });

      it('reads a payin this build created and paid', async () => {
        const reference = `upgrade-from-next-${run}`;
        expectStatus(await create(next, reference, 2500), 201);
        const paid = expectStatus(await pay(next, reference), 200);

        const readByPrevious = expectStatus(await read(previous, reference), 200);
        expect(paid).toMatchObject(readByPrevious);
        expect(readByPrevious).toMatchObject({ reference, status: 'SUCCESSFUL', amount: 2500, paidAt: paid.paidAt });
      });

      it('pays a payin this build created, as a checkout served by the other instance would', async () => {
        const reference = `upgrade-across-${run}`;
        const created = expectStatus(await create(next, reference, 990), 201);
        const paidByPrevious = expectStatus(await pay(previous, reference), 200);
        expect(paidByPrevious).toMatchObject({ status: 'SUCCESSFUL', amount: 990, createdAt: created.createdAt, expiresAt: created.expiresAt });
        expect(expectStatus(await read(next, reference), 200)).toMatchObject(paidByPrevious);
      });

      it('leaves a ledger whose every invariant holds, by this build’s check', () => {
        const check = spawnSync(process.execPath, [MAIN, 'ledger-check'], { encoding: 'utf8', env: { PATH: process.env.PATH, DATABASE_URL: database.url } });
        expect(check.stdout).toMatch(/^ledger check: \d+ journals, \d+ entries, \d+ accounts$/m);
        expect(check.stdout).not.toContain('BROKEN');
        expect(check.status).toBe(0);
      });

      it('stops both on SIGTERM, each draining and exiting 0', async () => {
        for (const { service } of [previous, next]) {
          expect(await service.stop()).toBe(0);
          expect(service.logs()).toContainEqual(expect.objectContaining({ msg: 'shutdown: complete' }));
        }
      });
    }),
  ),
);
