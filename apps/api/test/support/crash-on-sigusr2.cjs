// Preloaded into the built service (node --require) by log-output.e2e.spec.ts:
// SIGUSR2 makes it throw an exception that nothing catches, as a bug would.
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('the crash log-output.e2e.spec.ts asked for');
  });
});
