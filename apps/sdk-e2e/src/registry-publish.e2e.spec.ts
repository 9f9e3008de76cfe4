// The release path end to end, on a real registry: Verdaccio on a free
// loopback port, the SDK published by `nx release publish` (the command a
// maintainer runs), then installed by name in a clean folder outside the
// repository, as a merchant installs it, and run on every Node line we claim.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { MERCHANT_A, freePort, startTestApp, type TestApp } from '@paysign/api/testing';

const REPO = path.resolve(__dirname, '../../..');
const exec = promisify(execFile);
const nodeBinaries = [process.execPath, ...(process.env.PAYSIGN_TEST_NODE_BINARIES ?? '').split(',').filter(Boolean)];
const nodeVersion = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();


describe('@paysign/sdk through a registry', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-registry-'));
  const merchantApp = path.join(work, 'merchant-app');
  let verdaccio: ChildProcess;
  let registry: string;
  let npmrc: string;
  let api: TestApp;

  beforeAll(async () => {
    const port = await freePort();
    registry = `http://127.0.0.1:${port}/`;
    // Our scope is published here and never proxied; every other package comes through from the usual registry.
    const upstream = execFileSync('npm', ['config', 'get', 'registry'], { cwd: os.tmpdir(), encoding: 'utf8' }).trim();
    fs.writeFileSync(
      path.join(work, 'config.yaml'),
      [
        `storage: ${path.join(work, 'storage')}`,
        'auth:',
        `  htpasswd: { file: ${path.join(work, 'htpasswd')} }`,
        `uplinks: { upstream: { url: '${upstream}' } }`,
        'packages:',
        "  '@paysign/*': { access: $all, publish: $authenticated }",
        "  '**': { access: $all, publish: $authenticated, proxy: upstream }",
        'log: { type: stdout, format: json, level: warn }',
      ].join('\n'),
    );
    verdaccio = spawn(path.join(REPO, 'node_modules/.bin/verdaccio'), ['--config', path.join(work, 'config.yaml'), '--listen', `127.0.0.1:${port}`], { stdio: 'ignore' });
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 200))) {
      if (await fetch(`${registry}-/ping`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error('Verdaccio did not start within 30 s');
    }
    // A publisher account on this registry, as `npm adduser` would make, in an npmrc of its own.
    const user = await fetch(`${registry}-/user/org.couchdb.user:release-ci`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'release-ci', password: 'release-ci-password' }) });
    const { token } = (await user.json()) as { token: string };
    npmrc = path.join(work, 'npmrc');
    fs.writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
    api = await startTestApp();
  }, 60_000);

  afterAll(async () => {
    verdaccio?.kill();
    await api?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('is published by nx release publish', async () => {
    // The bundle was built before this suite (sdk-e2e:test depends on sdk:build); rebuilding it here would
    // pull dist/ from under the suites that run beside this one.
    const { stdout } = await exec(path.join(REPO, 'node_modules/.bin/nx'), ['release', 'publish', '--registry', registry, '--excludeTaskDependencies'], {
      cwd: REPO,
      env: { ...process.env, NX_DAEMON: 'false', NPM_CONFIG_USERCONFIG: npmrc },
      timeout: 120_000,
    });
    expect(stdout).toContain(`Published to ${registry.replace(/\/$/, '')}`);
    const packument = (await (await fetch(`${registry}@paysign%2fsdk`)).json()) as { versions: Record<string, unknown> };
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'libs/sdk/package.json'), 'utf8')) as { version: string };
    expect(Object.keys(packument.versions)).toEqual([version]);
  }, 180_000);

  it('installs by name in a clean folder outside the repository', async () => {
    fs.mkdirSync(merchantApp);
    await exec('npm', ['init', '-y'], { cwd: merchantApp });
    await exec('npm', ['install', '--no-audit', '--no-fund', '@paysign/sdk', '--registry', registry], { cwd: merchantApp, env: { ...process.env, NPM_CONFIG_USERCONFIG: npmrc }, timeout: 120_000 });
    expect(fs.existsSync(path.join(merchantApp, 'node_modules/@paysign/sdk/dist/index.js'))).toBe(true);
    expect(fs.existsSync(path.join(merchantApp, 'node_modules/openapi-fetch'))).toBe(true);
  }, 180_000);

  it.each(nodeBinaries.map((binary) => [nodeVersion(binary), binary] as const))('works from CommonJS, ESM and TypeScript, and npx paysign --help runs, on Node %s', async (_version, nodeBinary) => {
    const env = {
      ...process.env,
      PAYSIGN_BASE_URL: api.baseUrl,
      PAYSIGN_API_KEY: MERCHANT_A.apiKey,
      PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey,
      PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId,
      PAYSIGN_TENANT_ID: MERCHANT_A.tenantId,
    };
    const setup = `{ baseUrl: process.env.PAYSIGN_BASE_URL, apiKey: process.env.PAYSIGN_API_KEY, secretKey: process.env.PAYSIGN_SECRET_KEY, merchantId: process.env.PAYSIGN_MERCHANT_ID, tenantId: process.env.PAYSIGN_TENANT_ID }`;
    fs.writeFileSync(path.join(merchantApp, 'smoke.cjs'), `const { PaymentClient } = require('@paysign/sdk');\nnew PaymentClient(${setup}).banks.list().then((banks) => console.log(banks.length > 30 ? 'cjs ok' : 'cjs short'));\n`);
    fs.writeFileSync(path.join(merchantApp, 'smoke.mjs'), `import { PaymentClient, AccountEnquiryError } from '@paysign/sdk';\nconst client = new PaymentClient(${setup});\nconst error = await client.accounts.enquire({ bankCode: '058', accountNumber: '0000000025' }).catch((e) => e);\nconsole.log(error instanceof AccountEnquiryError ? 'esm ' + error.code : 'esm wrong');\n`);
    fs.writeFileSync(
      path.join(merchantApp, 'smoke.ts'),
      `import { PaymentClient, type Bank, type PaymentErrorCode } from '@paysign/sdk';\nconst client: PaymentClient = new PaymentClient({ baseUrl: 'http://localhost', apiKey: 'k', secretKey: 's', merchantId: 'm', tenantId: 't' });\nconst code: PaymentErrorCode = 'RATE_LIMITED';\nconst banks: Promise<Bank[]> = client.banks.list();\nvoid code; void banks;\n`,
    );
    expect((await exec(nodeBinary, ['smoke.cjs'], { cwd: merchantApp, env })).stdout.trim()).toBe('cjs ok');
    expect((await exec(nodeBinary, ['smoke.mjs'], { cwd: merchantApp, env })).stdout.trim()).toBe('esm ACCOUNT_DORMANT');
    await exec(nodeBinary, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'false', 'smoke.ts'], { cwd: merchantApp });
    // npx runs the bin with the Node that npm itself runs on; the bin is run on this Node line directly too.
    expect((await exec('npx', ['--no-install', 'paysign', '--help'], { cwd: merchantApp, env })).stdout).toContain('Usage: paysign <command>');
    const bin = path.join(merchantApp, 'node_modules/.bin/paysign');
    expect((await exec(nodeBinary, [fs.realpathSync(bin), '--help'], { cwd: merchantApp, env })).stdout).toContain('Usage: paysign <command>');
  }, 120_000);
});
