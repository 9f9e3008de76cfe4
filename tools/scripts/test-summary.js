// Prints the totals recorded by jest-summary-reporter.js. With --reset it clears
// them first, so that a project which ran no tests cannot borrow stale counts.
const fs = require('node:fs');
const path = require('node:path');

const RESULTS_DIR = path.join(__dirname, '..', '..', '.test-results');

if (process.argv.includes('--reset')) {
  fs.rmSync(RESULTS_DIR, { recursive: true, force: true });
  process.exit(0);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const files = fs.existsSync(RESULTS_DIR) ? fs.readdirSync(RESULTS_DIR) : [];
for (const file of files) {
  const counts = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, file), 'utf8'));
  for (const key of Object.keys(totals)) totals[key] += counts[key];
}
if (files.length === 0 || totals.passed === 0) {
  console.error('No test results were recorded: did any test run?');
  process.exit(1);
}
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
