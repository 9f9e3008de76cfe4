// Generates libs/contracts/src/generated/ from openapi/payment-api.yaml: the
// types (openapi-typescript) and the component schemas as constants, so that
// runtime checks read their enums, patterns and limits from the contract.
// `node generate-contracts.js [outDir] [--force]`; the drift check generates into a scratch folder.
// Each file names the hash of what it was made from (the contract, this script
// and openapi-typescript's version): when the files already name the current
// one, there is nothing to do, and a build or `npm start` skips the seconds
// openapi-typescript takes.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');

const root = path.join(__dirname, '..', '..');
const CONTRACT = path.join(root, 'openapi/payment-api.yaml');
const DEFAULT_OUT = path.join(root, 'libs/contracts/src/generated');

const OUTPUTS = ['payment-api.ts', 'schemas.ts'];

/** The hash of everything the generated files depend on. */
function inputsHash() {
  const generatorVersion = JSON.parse(fs.readFileSync(require.resolve('openapi-typescript/package.json', { paths: [root] }), 'utf8')).version;
  return createHash('sha256').update(fs.readFileSync(CONTRACT)).update('\0').update(fs.readFileSync(__filename)).update('\0').update(generatorVersion).digest('hex');
}

const banner = (hash) =>
  ['/*', ' * GENERATED FILE, DO NOT EDIT.', ' * Source: openapi/payment-api.yaml. Regenerate with `npx nx run contracts:generate`.', ` * Inputs: sha256 ${hash}`, ' */', ''].join('\n');

function generate(outDir) {
  const BANNER = banner(inputsHash());
  fs.mkdirSync(outDir, { recursive: true });
  const types = path.join(outDir, 'payment-api.ts');
  execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [CONTRACT, '--output', types], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.writeFileSync(types, BANNER + fs.readFileSync(types, 'utf8'));

  const { schemas } = parse(fs.readFileSync(CONTRACT, 'utf8')).components;
  const constants = [
    BANNER,
    '/** The contract\'s component schemas, as data: the one source of every enum, pattern and limit. */',
    `export const SCHEMAS = ${JSON.stringify(schemas, null, 2)} as const;`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(outDir, 'schemas.ts'), constants);
}

/** Generates unless every output already names the current inputs' hash; says whether it generated. */
function generateIfChanged(outDir) {
  const stamp = ` * Inputs: sha256 ${inputsHash()}\n`;
  const current = OUTPUTS.every((name) => {
    const file = path.join(outDir, name);
    return fs.existsSync(file) && fs.readFileSync(file, 'utf8').slice(0, 400).includes(stamp);
  });
  if (current) return false;
  generate(outDir);
  return true;
}

module.exports = { generate, generateIfChanged, DEFAULT_OUT };

if (require.main === module) {
  const args = process.argv.slice(2);
  const outDir = path.resolve(args.find((arg) => arg !== '--force') ?? DEFAULT_OUT);
  if (args.includes('--force')) generate(outDir);
  else if (!generateIfChanged(outDir)) console.log(`${path.relative(root, outDir)} is up to date with openapi/payment-api.yaml.`);
}
