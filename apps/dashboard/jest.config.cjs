// The pure helpers' specs (money, access); components are exercised by the browser suites.
module.exports = { ...require('../../jest.preset.js'), displayName: 'dashboard' };
