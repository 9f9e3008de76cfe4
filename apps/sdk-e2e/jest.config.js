module.exports = { ...require('../../jest.preset.js'), displayName: 'sdk-e2e', testTimeout: 30000 };
