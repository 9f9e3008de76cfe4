// `npm start`: the service, built first when its sources changed since the
// last build, then run in this process, so that SIGTERM and Ctrl-C reach it
// and it drains. What `nx run api:build` does, without the seconds Nx takes to
// read the workspace when there is nothing to build: the contract's generated
// files are generated afresh and written only when they differ (generate-contracts.js),
// and the bundle only when a file it is built from is newer than it.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { generate, DEFAULT_OUT } = require('./generate-contracts');

const root = path.join(__dirname, '..', '..');
const api = path.join(root, 'apps/api');
const BUNDLE = path.join(api, 'dist/main.js');
/** What the bundle is built from: the service, the libraries tsup bundles into it (@paysign/*), and the build's own settings. */
const BUILD_INPUTS = ['apps/api/src', 'apps/api/bench', 'apps/api/tsup.config.ts', 'apps/api/tsconfig.json', 'apps/api/package.json', 'libs/signing/src', 'libs/contracts/src', 'tsconfig.base.json', 'package-lock.json'];

function newestChange(entry) {
  const stats = fs.statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return fs.readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

const dashboard = path.join(root, 'apps/dashboard');
const DASHBOARD_INDEX = path.join(dashboard, 'dist/index.html');
const DASHBOARD_INPUTS = ['apps/dashboard/src', 'apps/dashboard/index.html', 'apps/dashboard/vite.config.ts', 'apps/dashboard/package.json', 'libs/contracts/src', 'package-lock.json'];

function dashboardIsCurrent() {
  if (!fs.existsSync(DASHBOARD_INDEX)) return false;
  const built = fs.statSync(DASHBOARD_INDEX).mtimeMs;
  return DASHBOARD_INPUTS.every((input) => newestChange(path.join(root, input)) <= built);
}

function bundleIsCurrent() {
  if (!fs.existsSync(BUNDLE)) return false;
  const built = fs.statSync(BUNDLE).mtimeMs;
  return BUILD_INPUTS.every((input) => newestChange(path.join(root, input)) <= built);
}

generate(DEFAULT_OUT);
if (!bundleIsCurrent()) execFileSync(path.join(root, 'node_modules/.bin/tsup'), { cwd: api, stdio: ['ignore', 'ignore', 'inherit'] });
// The merchant dashboard the service serves at /payment/dashboard/, built the same way: only when a file it is built from is newer.
if (!dashboardIsCurrent()) execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: dashboard, stdio: ['ignore', 'ignore', 'inherit'] });
require(BUNDLE);
