// The suites mostly wait on the service, npm and child processes rather than on
// the CPU, so two workers, one per core, finish well before one would.
module.exports = { ...require('../../jest.preset.js'), displayName: 'sdk-e2e', testTimeout: 30000, maxWorkers: 2 };
