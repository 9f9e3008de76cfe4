// Records one project's test counts so that `npm test` can print a single
// "Tests: N passed, N failed, N skipped" line across every project.
const fs = require('node:fs');
const path = require('node:path');

const RESULTS_DIR = path.join(__dirname, '..', '..', '.test-results');

class JestSummaryReporter {
  onRunComplete(_contexts, results) {
    const project = process.env.NX_TASK_TARGET_PROJECT || path.basename(process.cwd());
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const counts = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    fs.writeFileSync(path.join(RESULTS_DIR, `${project}.json`), JSON.stringify(counts));
  }
}

module.exports = JestSummaryReporter;
