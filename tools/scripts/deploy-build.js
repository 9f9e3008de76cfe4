// Builds a self-contained deployable folder for the payment service:
//   npm run deploy:build -- --out DIR
// DIR then holds the bundle (main.js), a package.json with the service's runtime
// dependencies pinned to the versions tested here, a lockfile pruned from the
// monorepo's, the contract, the docs the service serves and the default config. Outside the monorepo,
// `npm ci --omit=dev && node main.js` runs it.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const root = path.join(__dirname, '..', '..');
const apiRoot = path.join(root, 'apps/api');

const { values } = parseArgs({ options: { out: { type: 'string' }, 'skip-build': { type: 'boolean', default: false } } });
if (!values.out) {
  console.error('Usage: npm run deploy:build -- --out DIR');
  process.exit(2);
}
const out = path.resolve(values.out);
if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
  console.error(`${out} is not empty: give a new or empty folder.`);
  process.exit(2);
}

if (!values['skip-build']) execFileSync(path.join(root, 'node_modules/.bin/nx'), ['run', 'api:build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });

fs.mkdirSync(path.join(out, 'config'), { recursive: true });
fs.mkdirSync(path.join(out, 'openapi'), { recursive: true });
for (const file of ['main.js', 'main.js.map']) fs.copyFileSync(path.join(apiRoot, 'dist', file), path.join(out, file));
fs.copyFileSync(path.join(apiRoot, 'config/merchants.sandbox.json'), path.join(out, 'config/merchants.sandbox.json'));
fs.copyFileSync(path.join(root, 'openapi/payment-api.yaml'), path.join(out, 'openapi/payment-api.yaml'));
// What /payment/docs serves: the reference's renderer (only its bundle, not the package), the protocol and its vectors, the runbooks.
fs.mkdirSync(path.join(out, 'docs'), { recursive: true });
fs.copyFileSync(require.resolve('redoc/bundles/redoc.standalone.js', { paths: [apiRoot] }), path.join(out, 'docs/redoc.standalone.js'));
fs.copyFileSync(path.join(root, 'docs/protocol.md'), path.join(out, 'docs/protocol.md'));
fs.copyFileSync(path.join(root, 'docs/runbooks.md'), path.join(out, 'docs/runbooks.md'));
fs.copyFileSync(path.join(root, 'libs/signing/vectors.json'), path.join(out, 'docs/vectors.json'));
// The merchant dashboard, built by api:build (which depends on dashboard:build), served from dashboard/ beside main.js.
fs.cpSync(path.join(root, 'apps/dashboard/dist'), path.join(out, 'dashboard'), { recursive: true });
// The restore drill an operator schedules, beside the main.js whose ledger check it runs (docs/operations.md, "Backups").
fs.copyFileSync(path.join(root, 'tools/scripts/restore-drill.sh'), path.join(out, 'restore-drill.sh'));
fs.chmodSync(path.join(out, 'restore-drill.sh'), 0o755);

// The runtime dependencies, pinned to the versions installed (and tested) here.
const apiPackage = JSON.parse(fs.readFileSync(path.join(apiRoot, 'package.json'), 'utf8'));
const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
// As Node resolves it from apps/api: a copy nested there first, else the hoisted one.
const installedVersion = (name) => (lock.packages[`apps/api/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`]).version;
const dependencies = Object.fromEntries(
  Object.keys(apiPackage.dependencies)
    .filter((name) => !name.startsWith('@paysign/'))
    .sort()
    .map((name) => [name, installedVersion(name)]),
);
const deployPackage = {
  name: 'paysign-payment-service',
  version: apiPackage.version,
  private: true,
  description: 'The Paysign payment service, built for deployment: run `npm ci --omit=dev`, then `node main.js`.',
  engines: rootPackage.engines,
  scripts: { start: 'node main.js', 'ledger:check': 'node main.js ledger-check', merchants: 'node main.js merchants', attention: 'node main.js attention', webhooks: 'node main.js webhooks', reconcile: 'node main.js reconcile' },
  dependencies,
  overrides: Object.fromEntries(Object.entries(rootPackage.overrides ?? {}).filter(([name]) => name in dependencies)),
};
fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(deployPackage, null, 2)}\n`);

// npm prunes the monorepo's lockfile to these dependencies, keeping every version it had locked.
fs.copyFileSync(path.join(root, 'package-lock.json'), path.join(out, 'package-lock.json'));
execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: out, stdio: ['ignore', 'ignore', 'inherit'] });

fs.writeFileSync(
  path.join(out, 'README.md'),
  [
    '# Paysign payment service',
    '',
    'Built by `npm run deploy:build` from the monorepo. To run it:',
    '',
    '```sh',
    'npm ci --omit=dev',
    'PAYSIGN_MODE=production SECRETS_KEYRING=k1:... REDIS_URL=redis://... DATABASE_URL=postgres://... ACCOUNT_NAME_PROVIDER=sandbox PUBLIC_BASE_URL=https://pay.example.com CHECKOUT_TOKEN_SECRET=... METRICS_PORT=9100 node main.js',
    '```',
    '',
    'Run `node main.js` directly (not through npm), so that SIGTERM reaches the service and it drains before it exits.',
    '`npm run ledger:check`, with the same environment, checks every invariant of the ledger and exits non-zero with what is wrong (docs/ledger.md in the monorepo).',
    '`./restore-drill.sh`, with `BACKUP_DIR` and `DRILL_ADMIN_URL`, restores the newest dump into a scratch database, checks its ledger, prints one line and exits non-zero when the backup is not usable; schedule it (docs/operations.md in the monorepo, "Backups").',
    '`npm run merchants -- <command>` adds merchants, rolls, revokes and audits keys in the database, and imports merchants files; `npm run merchants -- --help` lists the commands (docs/operations.md in the monorepo).',
    '`npm run attention -- list`, `requery` and `resolve` act on objects that need attention, and `npm run webhooks -- replay` delivers a merchant\'s events again, with the same environment (docs/runbooks.md in the monorepo).',
    '`npm run reconcile -- --date YYYY-MM-DD` compares a day of the providers\' records with ours, and `reconcile list` and `reconcile resolve` show and settle what disagrees (docs/reconciliation.md in the monorepo).',
    'Every setting is an environment variable; the monorepo README lists them, and docs/operations.md explains deployment.',
    'What to do for each alert and each incident: docs/runbooks.md, also served at /payment/docs/runbooks.',
    '',
  ].join('\n'),
);
console.log(`deployable service in ${out}: ${Object.keys(dependencies).length} runtime dependencies; run \`npm ci --omit=dev && node main.js\` there.`);
