#!/usr/bin/env node
try {
  require.resolve('../dist/cli.js');
} catch {
  // Only in a clone of the monorepo, before the SDK is built: the published package always has dist/.
  console.error('paysign: the SDK is not built here. In the repository, run `npm run -s paysign -- <command>`, or build it with `npx nx run sdk:build`.');
  process.exit(2);
}
require('../dist/cli.js');
