// Shared jest settings: @swc/jest for speed (tsc runs separately as the typecheck
// target), workspace libraries resolved to their sources, and a reporter that
// records each project's counts for the summary line `npm test` prints.
const path = require('node:path');

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleNameMapper: {
    '^@paysign/signing$': path.join(__dirname, 'libs/signing/src/index.ts'),
    '^@paysign/signing/testing$': path.join(__dirname, 'libs/signing/src/testing.ts'),
    '^@paysign/contracts$': path.join(__dirname, 'libs/contracts/src/index.ts'),
    '^@paysign/contracts/testing$': path.join(__dirname, 'libs/contracts/src/testing/index.ts'),
    '^@paysign/sdk$': path.join(__dirname, 'libs/sdk/src/index.ts'),
    '^@paysign/sdk/signing$': path.join(__dirname, 'libs/sdk/src/signing.ts'),
    '^@paysign/sdk/testing$': path.join(__dirname, 'libs/sdk/src/testing.ts'),
    '^@paysign/api/testing$': path.join(__dirname, 'apps/api/test/support/index.ts'),
    '^@paysign/fake-paystack$': path.join(__dirname, 'tools/fake-paystack/src/index.ts'),
  },
  testMatch: ['**/*.spec.ts'],
  reporters: ['default', path.join(__dirname, 'tools/scripts/jest-summary-reporter.js')],
};
