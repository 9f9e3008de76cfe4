// How soon the merchant dashboard's home page shows something, and its
// balances, in Chromium: the built service (apps/api/dist/main.js, which
// serves apps/dashboard/dist) on a PostgreSQL database of its own, an owner
// added with `merchants add --owner-email`, onboarded through the setup link
// with a passkey (Chromium's virtual authenticator), signed out and in again;
// then the home page loaded --loads times with the browser's cache off (every
// asset fetched) and --loads times with it on (the hashed assets cached, as
// for a member coming back). For each load: first-contentful-paint from
// performance.getEntriesByType('paint'), and the time from the navigation's
// start until the balances are on the screen.
// A benchmark, not a test: it prints what it measured and never fails on timing.
// It builds nothing: run `npx nx run api:build` first (it builds the dashboard too).
//   npm run -s bench:dashboard-first-paint [-- --loads 5] [-- --json]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'pg';
import { chromium, type Page } from 'playwright-core';
import { PaymentClient } from '@paysign/sdk';
import { medianOf } from './service-process';
import { freePort, ROOT } from './service-build';

const { values } = parseArgs({ options: { loads: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const LOADS = Number(values.loads);
if (!Number.isInteger(LOADS) || LOADS < 1) throw new Error(`--loads must be a whole number of at least 1, not ${values.loads}`);
const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const DASHBOARD = path.join(ROOT, 'apps/dashboard/dist/index.html');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The whole run's limit: past it the service and the browser are stopped and the run fails, rather than hang. */
const RUN_DEADLINE_MS = 180_000;
const PASSWORD = 'correct horse battery staple';

for (const [file, what] of [[MAIN, 'the service'], [DASHBOARD, 'the dashboard']]) {
  if (!fs.existsSync(file as string)) throw new Error(`${file} is missing: build ${what} first with \`npx nx run api:build\` (it builds the dashboard too).`);
}
if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), or name another with CHROMIUM_PATH.`);

interface LoadFigures {
  firstContentfulPaintMs: number;
  balancesShownMs: number;
}

/** Starts the built service and waits until it is ready. */
async function startService(env: Record<string, string>, origin: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (await fetch(`${origin}/payment/health/ready`).then((r) => r.ok, () => false)) return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the built service did not become ready');
  }
}

/** Loads home and reads, from the page's own clock, when it first painted content and when the balances appeared. */
async function loadHome(page: Page, url: string): Promise<LoadFigures> {
  await page.goto(url, { waitUntil: 'commit' });
  // Polled on every frame, so that the time read is the frame's that first showed them. A function, not a
  // string: the page's CSP forbids eval, which a string predicate needs.
  const shown = await page.waitForFunction(
    () => {
      const { document, performance } = globalThis as unknown as { document: { querySelector: (selector: string) => unknown }; performance: { now: () => number } };
      return document.querySelector('[aria-label="Balances by currency"], #balances + p') ? performance.now() : false;
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  const balancesShownMs = (await shown.jsonValue()) as number;
  // The balances can be in the page a frame before it is painted: the paint's entry is waited for, not read at once.
  const painted = await page
    .waitForFunction(
      () => {
        const { performance } = globalThis as unknown as { performance: { getEntriesByType: (type: string) => Array<{ name: string; startTime: number }> } };
        return performance.getEntriesByType('paint').find((entry) => entry.name === 'first-contentful-paint')?.startTime ?? false;
      },
      undefined,
      { polling: 'raf', timeout: 10_000 },
    )
    .catch(() => undefined);
  const firstContentfulPaintMs = painted === undefined ? null : ((await painted.jsonValue()) as number);
  if (firstContentfulPaintMs === null) throw new Error(`${url} recorded no first-contentful-paint within 10 s of showing its balances`);
  return { firstContentfulPaintMs, balancesShownMs };
}

function summary(loads: readonly LoadFigures[], field: keyof LoadFigures): { medianMs: number; minMs: number; maxMs: number; eachMs: number[] } {
  const each = loads.map((load) => Math.round(load[field] * 10) / 10);
  const sorted = [...each].sort((a, b) => a - b);
  return { medianMs: medianOf(sorted), minMs: sorted[0] as number, maxMs: sorted.at(-1) as number, eachMs: each };
}

async function main(): Promise<void> {
  const admin = new Pool({ connectionString: DATABASE_URL });
  const database = `paysign_bench_dashboard_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(DATABASE_URL);
  databaseUrl.pathname = `/${database}`;
  const port = await freePort();
  // localhost, not 127.0.0.1: WebAuthn takes no IP address as relying party id.
  const origin = `http://localhost:${port}`;
  const env = { PAYSIGN_MODE: 'sandbox', DATABASE_URL: databaseUrl.toString(), PORT: String(port), LOG_LEVEL: 'warn', REDIS_URL: '' };
  let service: ChildProcess | undefined;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const deadline = setTimeout(() => {
    console.error(`the run took longer than ${RUN_DEADLINE_MS / 1000} s; stopping`);
    service?.kill('SIGKILL');
    void browser.close();
    process.exitCode = 1;
  }, RUN_DEADLINE_MS);
  try {
    service = await startService(env, origin);
    const email = `owner-${process.pid}@example.com`;
    const added = JSON.parse(
      execFileSync(process.execPath, [MAIN, 'merchants', 'add', '--merchant-id', `MCH-BENCH-${process.pid}`, '--tenant-id', 'TEN-BENCH', '--name', 'Bench Shop', '--owner-email', email, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }),
    ) as { apiKey: string; secretKey: string; merchantId: string; tenantId: string; setupUrl: string };
    // A customer's payment, so that the balances and collections have a row each.
    const sdk = new PaymentClient({ baseUrl: origin, apiKey: added.apiKey, secretKey: added.secretKey, merchantId: added.merchantId, tenantId: added.tenantId });
    const payin = await sdk.payins.create({ amount: 125_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: `bench-${process.pid}` });
    await sdk.payins.simulate(payin.reference, { outcome: 'successful' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } });
    await page.goto(added.setupUrl);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await page.goto(`${origin}/payment/dashboard/security`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { name: 'Balances' }).waitFor();

    const home = `${origin}/payment/dashboard/`;
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const cold: LoadFigures[] = [];
    for (let i = 0; i < LOADS; i++) cold.push(await loadHome(page, home));
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await loadHome(page, home); // fills the cache; not counted
    const warm: LoadFigures[] = [];
    for (let i = 0; i < LOADS; i++) warm.push(await loadHome(page, home));

    const figures = {
      loads: LOADS,
      browser: `Chromium ${browser.version()} headless, 1280x800`,
      coldCache: { firstContentfulPaint: summary(cold, 'firstContentfulPaintMs'), balancesShown: summary(cold, 'balancesShownMs') },
      warmCache: { firstContentfulPaint: summary(warm, 'firstContentfulPaintMs'), balancesShown: summary(warm, 'balancesShownMs') },
    };
    if (values.json) {
      console.log(JSON.stringify(figures));
    } else {
      console.log(`The dashboard's home page, loaded ${LOADS} times each way, in ${figures.browser}, from the built service on ${origin} (sandbox, PostgreSQL):`);
      console.log('                          median      range       (ms from the navigation\'s start)');
      for (const [label, run] of [['cache off', figures.coldCache], ['cache on', figures.warmCache]] as const) {
        for (const [what, stat] of [['first contentful paint', run.firstContentfulPaint], ['balances shown', run.balancesShown]] as const) {
          console.log(`  ${label.padEnd(10)} ${what.padEnd(23)} ${String(stat.medianMs).padStart(7)}   ${stat.minMs}–${stat.maxMs}`);
        }
      }
    }
  } finally {
    clearTimeout(deadline);
    await browser.close().catch(() => undefined);
    if (service && service.exitCode === null) {
      const exited = new Promise((resolve) => service?.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
