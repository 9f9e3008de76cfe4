// Fails when libs/contracts/src/generated no longer matches openapi/: it runs the
// generator into a scratch folder and compares, so the working tree is untouched.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { generate, DEFAULT_OUT } = require('./generate-contracts');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'contracts-'));
generate(scratch);

const files = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
const stale = [...new Set([...files(scratch), ...files(DEFAULT_OUT)])].filter((name) => {
  const committed = path.join(DEFAULT_OUT, name);
  const fresh = path.join(scratch, name);
  return !fs.existsSync(committed) || !fs.existsSync(fresh) || fs.readFileSync(committed, 'utf8') !== fs.readFileSync(fresh, 'utf8');
});
fs.rmSync(scratch, { recursive: true, force: true });

if (stale.length > 0) {
  console.error(`libs/contracts/src/generated is stale (${stale.join(', ')}): run \`npx nx run contracts:generate\` and commit the result.`);
  process.exit(1);
}
console.log('libs/contracts/src/generated matches openapi/payment-api.yaml.');
