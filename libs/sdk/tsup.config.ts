import { defineConfig } from 'tsup';

// The published package: ESM and CJS with their own .d.ts, our libraries
// (signing, contracts) bundled in, so that it depends only on npm packages.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', signing: 'src/signing.ts', testing: 'src/testing.ts' },
    format: ['cjs', 'esm'],
    outExtension: ({ format }) => ({ js: format === 'cjs' ? '.js' : '.mjs' }),
    dts: { resolve: [/^@paysign\//] },
    tsconfig: 'tsconfig.build.json',
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    clean: true,
    noExternal: [/^@paysign\//],
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['cjs'],
    tsconfig: 'tsconfig.build.json',
    target: 'node20',
    platform: 'node',
    noExternal: [/^@paysign\//],
  },
]);
