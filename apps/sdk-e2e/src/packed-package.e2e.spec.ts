// The package as a merchant gets it: packed, installed in a folder outside the
// repository, and used from CommonJS, ESM and TypeScript against the real service.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MERCHANT_A, startTestApp, type TestApp } from '@paysign/api/testing';
import { SIGNING_VECTORS } from '@paysign/signing/testing';

const REPO = path.resolve(__dirname, '../../..');
const SDK_DIR = path.join(REPO, 'libs/sdk');
/** For setup only: it blocks the event loop, so the in-process service cannot answer meanwhile. */
const runSync = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** Runs a merchant program while the in-process service keeps answering. */
const run = async (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  (await promisify(execFile)(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 })).stdout;

/** Tests that run the compiler or a merchant program in a child process: seconds each, many more on a busy machine. */
const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

describe('the packed @paysign/sdk tarball', () => {
  let api: TestApp;
  let project: string;
  let tarball: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(SDK_DIR, 'dist/index.js'))) throw new Error('libs/sdk/dist is missing: nx runs sdk:build before sdk-e2e:test');
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'merchant-app-'));
    const packed = JSON.parse(runSync('npm', ['pack', '--json', '--pack-destination', project], SDK_DIR)) as Array<{ filename: string }>;
    tarball = path.join(project, packed[0]?.filename ?? '');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true }));
    runSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
    api = await startTestApp();
    env = { PAYSIGN_BASE_URL: api.baseUrl, PAYSIGN_API_KEY: MERCHANT_A.apiKey, PAYSIGN_SECRET_KEY: MERCHANT_A.secretKey, PAYSIGN_MERCHANT_ID: MERCHANT_A.merchantId, PAYSIGN_TENANT_ID: MERCHANT_A.tenantId };
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  const clientSetup = `{ baseUrl: process.env.PAYSIGN_BASE_URL, apiKey: process.env.PAYSIGN_API_KEY, secretKey: process.env.PAYSIGN_SECRET_KEY, merchantId: process.env.PAYSIGN_MERCHANT_ID, tenantId: process.env.PAYSIGN_TENANT_ID }`;

  it('depends only on npm packages', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@paysign/sdk/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    // The version sent in the User-Agent is the package's own, from CommonJS and ESM builds alike.
    const { version } = manifest as unknown as { version: string };
    expect(runSync(process.execPath, ['-p', "require('@paysign/sdk').SDK_VERSION"], project).trim()).toBe(version);
    expect(runSync(process.execPath, ['--input-type=module', '-e', "import { SDK_VERSION } from '@paysign/sdk'; console.log(SDK_VERSION)"], project).trim()).toBe(version);
    expect(fs.existsSync(path.join(project, 'node_modules/@paysign/signing'))).toBe(false);
  });

  /** The Node binaries merchants run: this one, and the Node 22 and 24 that .ci/run installs. */
  const nodeBinaries = [process.execPath, ...(process.env.PAYSIGN_TEST_NODE_BINARIES ?? '').split(',').filter(Boolean)];

  it.each(nodeBinaries.map((binary) => [execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim(), binary] as const))(
    "runs the README's CommonJS and ESM quick starts, as written, on Node %s",
    async (_version, nodeBinary) => {
      const readme = fs.readFileSync(path.join(project, 'node_modules/@paysign/sdk/README.md'), 'utf8');
      const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Configuration'));
      const [commonJs, esm] = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string);
      expect(commonJs).toContain("require('@paysign/sdk')");
      expect(esm).toContain("from '@paysign/sdk'");
      // A project made by `npm init -y` is CommonJS: .js files are require()d.
      fs.writeFileSync(path.join(project, 'quick-start.js'), commonJs as string);
      fs.writeFileSync(path.join(project, 'quick-start.mjs'), esm as string);
      expect((await run(nodeBinary, ['quick-start.js'], project, env)).trim()).toMatch(/^\d+ banks; ADAEZE NWOSU$/);
      expect((await run(nodeBinary, ['quick-start.mjs'], project, env)).trim()).toBe('ADAEZE NWOSU');
    },
    CHILD_PROCESS_TEST_TIMEOUT_MS,
  );

  it('works from CommonJS', async () => {
    fs.writeFileSync(
      path.join(project, 'cjs.cjs'),
      `const { PaymentClient, PaymentError } = require('@paysign/sdk');
       new PaymentClient(${clientSetup}).accounts.enquire({ bankCode: '058', accountNumber: '0123456785' })
         .then((r) => console.log(JSON.stringify({ name: r.accountName, errorClass: typeof PaymentError })));`,
    );
    expect(JSON.parse(await run(process.execPath, ['cjs.cjs'], project, env))).toEqual({ name: 'ADAEZE NWOSU', errorClass: 'function' });
  }, CHILD_PROCESS_TEST_TIMEOUT_MS);

  it('works from ESM, and its errors are typed', async () => {
    fs.writeFileSync(
      path.join(project, 'esm.mjs'),
      `import { PaymentClient, AccountEnquiryError } from '@paysign/sdk';
       const client = new PaymentClient(${clientSetup});
       const banks = await client.banks.list();
       const error = await client.accounts.enquire({ bankCode: '058', accountNumber: '0000000018' }).catch((e) => e);
       console.log(JSON.stringify({ banks: banks.length, typed: error instanceof AccountEnquiryError, code: error.code }));`,
    );
    expect(JSON.parse(await run(process.execPath, ['esm.mjs'], project, env))).toEqual({ banks: expect.any(Number), typed: true, code: 'ACCOUNT_NOT_FOUND' });
  }, CHILD_PROCESS_TEST_TIMEOUT_MS);

  it('works from TypeScript with its bundled types', async () => {
    fs.writeFileSync(
      path.join(project, 'app.ts'),
      `import { PaymentClient, type Payin } from '@paysign/sdk';
       const client = new PaymentClient(${clientSetup.replace(/process\.env\.(\w+)/g, 'process.env.$1 as string')});
       async function main(): Promise<void> {
         const payin: Payin = await client.payins.create({ amount: 1000.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'tarball-' + Date.now() });
         console.log(JSON.stringify({ status: payin.status, amount: payin.amount }));
       }
       void main();`,
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', outDir: 'out', typeRoots: [path.join(REPO, 'node_modules/@types')], types: ['node'], skipLibCheck: false }, files: ['app.ts'] }),
    );
    await run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    expect(JSON.parse(await run(process.execPath, ['out/app.js'], project, env))).toEqual({ status: 'PENDING', amount: 1000.5 });
  }, CHILD_PROCESS_TEST_TIMEOUT_MS);

  it("compiles the README's TypeScript quick start under strict, as written, and runs it", async () => {
    const readme = fs.readFileSync(path.join(project, 'node_modules/@paysign/sdk/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Configuration'));
    const typescript = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(typescript).toContain("from '@paysign/sdk'");
    fs.writeFileSync(path.join(project, 'quick-start.ts'), typescript as string);
    fs.writeFileSync(
      path.join(project, 'tsconfig.quick-start.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', outDir: 'out-quick-start', typeRoots: [path.join(REPO, 'node_modules/@types')], types: ['node'], skipLibCheck: false }, files: ['quick-start.ts'] }),
    );
    await run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.quick-start.json'], project);
    expect((await run(process.execPath, ['out-quick-start/quick-start.js'], project, env)).trim()).toMatch(/^\d+ banks; ADAEZE NWOSU$/);
  }, CHILD_PROCESS_TEST_TIMEOUT_MS);

  it('ships the paysign CLI, which reproduces the vectors', async () => {
    const vector = SIGNING_VECTORS.find((v) => v.name === 'every-payin-field');
    if (!vector) throw new Error('vector missing');
    const r = vector.request;
    const out = await run(path.join(project, 'node_modules/.bin/paysign'), ['sign', '--api-key', r.apiKey, '--nonce', r.nonce, '--timestamp', String(r.timestamp), '--method', r.method, '--path', r.path, '--body', r.body ?? ''], project, { PAYSIGN_SECRET_KEY: r.secretKey });
    expect(JSON.parse(out.trim().split('\n').pop() ?? '')).toMatchObject(vector.want);
  }, CHILD_PROCESS_TEST_TIMEOUT_MS);

  it('ships its README and a CLI that sends signed requests', async () => {
    expect(fs.readFileSync(path.join(project, 'node_modules/@paysign/sdk/README.md'), 'utf8')).toContain('## The `paysign` CLI');
    const out = await run(path.join(project, 'node_modules/.bin/paysign'), ['request', '--method', 'GET', '--path', '/payment/merchant-api/banks'], project, env);
    expect(out.split('\n')[0]).toBe('HTTP 200 OK');
  });

  it('has correct types for every entry and condition (arethetypeswrong)', async () => {
    await expect(run(path.join(REPO, 'node_modules/.bin/attw'), [tarball, '--profile', 'node16', '--format', 'ascii'], REPO)).resolves.toContain('@paysign/sdk');
  });
});
