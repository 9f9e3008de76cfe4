module.exports = { ...require('../../jest.preset.js'), displayName: 'api', testTimeout: 30000 };
