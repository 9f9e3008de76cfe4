// Generates libs/contracts/src/generated/ from openapi/payment-api.yaml: the
// types (openapi-typescript) and the component schemas as constants, so that
// runtime checks read their enums, patterns and limits from the contract.
// `node generate-contracts.js [outDir]`; the drift check generates into a scratch folder.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parse } = require('yaml');

const root = path.join(__dirname, '..', '..');
const CONTRACT = path.join(root, 'openapi/payment-api.yaml');
const DEFAULT_OUT = path.join(root, 'libs/contracts/src/generated');

const BANNER = [
  '/*',
  ' * GENERATED FILE, DO NOT EDIT.',
  ' * Source: openapi/payment-api.yaml. Regenerate with `npx nx run contracts:generate`.',
  ' */',
  '',
].join('\n');

function generate(outDir) {
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

module.exports = { generate, DEFAULT_OUT };

if (require.main === module) generate(path.resolve(process.argv[2] ?? DEFAULT_OUT));
