import { defineConfig } from 'tsup';

// tsup compiles with swc when emitDecoratorMetadata is on, which Nest's DI needs.
export default defineConfig({
  // bench-server is the service with one unguarded twin of a route, for bench:server only; deploy:build ships main.js alone.
  entry: { main: 'src/main.ts', 'bench-server': 'bench/bench-server.ts' },
  outDir: 'dist',
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  // Our own libraries are bundled; npm packages stay external.
  noExternal: [/^@paysign\//],
});
