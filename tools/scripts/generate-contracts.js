// Generates libs/contracts/src/generated/ from openapi/payment-api.yaml: the
// types (openapi-typescript) and the component schemas as constants, so that
// runtime checks read their enums, patterns and limits from the contract; and
// the dashboard's types and schemas from openapi/dashboard-api.yaml.
// `node generate-contracts.js [outDir]` (`npm run generate`).
// Every run generates afresh and compares what it made with what is on disk,
// byte for byte: a hand edit is overwritten even when it kept the header. A
// file is written only when it differs, so that an unchanged contract leaves
// the files, and their times, as they are (`npm start` rebuilds the service
// when a file it is built from is newer than the bundle). Each file names the
// hash of what it was made from (the contract, this script and
// openapi-typescript's version), for a reader; no run trusts it.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parse } = require('yaml');

const root = path.join(__dirname, '..', '..');
const DEFAULT_OUT = path.join(root, 'libs/contracts/src/generated');

/** Each contract, and the files made from it: its types, and its component schemas as the constant named. */
const CONTRACTS = [
  { source: 'openapi/payment-api.yaml', types: 'payment-api.ts', schemas: 'schemas.ts', constant: 'SCHEMAS' },
  { source: 'openapi/dashboard-api.yaml', types: 'dashboard-api.ts', schemas: 'dashboard-schemas.ts', constant: 'DASHBOARD_SCHEMAS' },
];

const OUTPUTS = CONTRACTS.flatMap((contract) => [contract.types, contract.schemas]);

/** The hash of everything one contract's generated files depend on. */
function inputsHash(source) {
  const generatorVersion = JSON.parse(fs.readFileSync(require.resolve('openapi-typescript/package.json', { paths: [root] }), 'utf8')).version;
  return createHash('sha256').update(fs.readFileSync(source)).update('\0').update(fs.readFileSync(__filename)).update('\0').update(generatorVersion).digest('hex');
}

const banner = (source, hash) =>
  ['/*', ' * GENERATED FILE, DO NOT EDIT.', ` * Source: ${source}. Regenerate with \`npm run generate\`.`, ` * Inputs: sha256 ${hash}`, ' */', ''].join('\n');

/** What the generated folder must hold, file name to text, made from the contracts now. */
function render() {
  const files = new Map();
  for (const contract of CONTRACTS) {
    const source = path.join(root, contract.source);
    const BANNER = banner(contract.source, inputsHash(source));
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'contracts-'));
    try {
      const types = path.join(scratch, contract.types);
      execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [source, '--output', types], { stdio: ['ignore', 'ignore', 'inherit'] });
      const { schemas } = parse(fs.readFileSync(source, 'utf8')).components;
      files.set(contract.types, BANNER + fs.readFileSync(types, 'utf8'));
      files.set(
        contract.schemas,
        [BANNER, "/** The contract's component schemas, as data: the one source of every enum, pattern and limit. */", `export const ${contract.constant} = ${JSON.stringify(schemas, null, 2)} as const;`, ''].join('\n'),
      );
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return files;
}

/**
 * Each way `dir` differs from `files` (a file missing, extra, or changed, with
 * the first line that differs); empty when it holds exactly them.
 */
function differences(dir, files) {
  const present = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const found = present.filter((name) => !files.has(name)).map((name) => `${name} is not generated from the contract`);
  for (const [name, text] of files) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      found.push(`${name} is missing`);
      continue;
    }
    const onDisk = fs.readFileSync(file, 'utf8');
    if (onDisk === text) continue;
    const want = text.split('\n');
    const have = onDisk.split('\n');
    const line = want.findIndex((expected, i) => have[i] !== expected);
    found.push(`${name} differs from line ${(line < 0 ? want.length : line) + 1}`);
  }
  return found.sort();
}

/** Whether `file` is a file this script wrote: it opens with the generated banner. */
function isGenerated(file) {
  if (!fs.statSync(file).isFile()) return false;
  return fs.readFileSync(file, 'utf8').slice(0, 200).includes('GENERATED FILE, DO NOT EDIT');
}

/** Generates into `outDir`, writing only the files whose text differs and removing any other; returns what it changed. */
function generate(outDir) {
  const files = render();
  const changed = differences(outDir, files);
  fs.mkdirSync(outDir, { recursive: true });
  // Only a generated file is ever removed: a folder given by mistake (libs/contracts/src) loses nothing that was written by hand.
  for (const name of fs.readdirSync(outDir)) if (!files.has(name) && isGenerated(path.join(outDir, name))) fs.rmSync(path.join(outDir, name), { force: true });
  for (const [name, text] of files) {
    const file = path.join(outDir, name);
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  }
  return changed;
}

module.exports = { generate, render, differences, DEFAULT_OUT, OUTPUTS };

if (require.main === module) {
  const outDir = path.resolve(process.argv.slice(2).find((arg) => arg !== '--force') ?? DEFAULT_OUT);
  const changed = generate(outDir);
  const where = path.relative(root, outDir) || outDir;
  if (changed.length === 0) console.log(`${where} matches openapi/; nothing to write.`);
  else console.log(`${where} regenerated from openapi/: ${changed.join('; ')}.`);
}
