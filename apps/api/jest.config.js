// The suites mostly wait on sockets, timers and stores rather than on the CPU,
// so two workers, one per core, finish well before one would.
module.exports = { ...require('../../jest.preset.js'), displayName: 'api', testTimeout: 30000, maxWorkers: 2 };
