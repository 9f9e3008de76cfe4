// Fails when libs/contracts/src/generated no longer matches openapi/: it runs the
// generator into a scratch folder and compares, so the working tree is untouched.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const committed = path.join(root, 'libs/contracts/src/generated/payment-api.ts');
const scratch = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contracts-')), 'payment-api.ts');

execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [path.join(root, 'openapi/payment-api.yaml'), '--output', scratch], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
execFileSync(process.execPath, [path.join(__dirname, 'contracts-banner.js'), scratch]);

if (!fs.existsSync(committed) || fs.readFileSync(scratch, 'utf8') !== fs.readFileSync(committed, 'utf8')) {
  console.error('libs/contracts/src/generated is stale: run `npx nx run contracts:generate` and commit the result.');
  process.exit(1);
}
console.log('libs/contracts/src/generated matches openapi/payment-api.yaml.');
