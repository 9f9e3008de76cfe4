// Runs the payment service's fuzz suite (apps/api/test/fuzz.e2e.spec.ts) for
// longer than `npm test` does:
//   npm run fuzz -- --runs 5000                 # a new random seed, printed
//   npm run fuzz -- --seed S --path P -t "<test name>"   # replays one failure
// --runs, --seed and --path become FUZZ_RUNS, FUZZ_SEED and FUZZ_PATH; any
// other argument goes to jest.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const DEFAULT_RUNS = 2000;
const OPTIONS = { '--runs': 'FUZZ_RUNS', '--seed': 'FUZZ_SEED', '--path': 'FUZZ_PATH' };

const env = { ...process.env, FUZZ_RUNS: String(DEFAULT_RUNS), FUZZ_SEED: String(Date.now() % 2 ** 31) };
const jestArgs = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 1) {
  const [name, inline] = args[i].split(/=(.*)/s);
  if (!(name in OPTIONS)) {
    jestArgs.push(args[i]);
    continue;
  }
  const value = inline ?? args[(i += 1)];
  if (value === undefined) {
    console.error(`${name} needs a value, such as ${name} 5000`);
    process.exit(2);
  }
  env[OPTIONS[name]] = value;
}

console.log(`fuzz: FUZZ_RUNS=${env.FUZZ_RUNS} FUZZ_SEED=${env.FUZZ_SEED}${env.FUZZ_PATH ? ` FUZZ_PATH=${env.FUZZ_PATH}` : ''}`);
const apiDir = path.join(__dirname, '..', '..', 'apps', 'api');
const jest = path.join(__dirname, '..', '..', 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(process.execPath, ['--experimental-vm-modules', jest, 'test/fuzz.e2e.spec.ts', ...jestArgs], { cwd: apiDir, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
