#!/usr/bin/env node
// Runs the paysign CLI from its TypeScript sources, for use inside the repository
// (`npm run -s paysign -- ...`). The published package runs the built dist/cli.js.
require('tsx/cjs');
require('../src/cli/main.ts');
