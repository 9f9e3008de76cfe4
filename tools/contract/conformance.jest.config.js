// `npm run test:contract`: the contract conformance suite of apps/api, on its
// own. Its files end in `.contract.ts`, which the api project's `test` target
// (`*.spec.ts`) does not run, so `npm test` does not run it a second time.
const path = require('node:path');
const api = require('../../apps/api/jest.config.js');

module.exports = {
  ...api,
  displayName: 'contract',
  rootDir: path.join(__dirname, '../../apps/api'),
  testMatch: ['<rootDir>/test/**/*.contract.ts'],
  // Counts go to the terminal only: the summary `npm test` prints is of its own projects.
  reporters: ['default'],
};
