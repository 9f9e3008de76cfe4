import { defineConfig } from 'tsup';

// tsup compiles with swc when emitDecoratorMetadata is on, which Nest's DI needs.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  outDir: 'dist',
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  // Our own libraries are bundled; npm packages stay external.
  noExternal: [/^@paysign\//],
});
