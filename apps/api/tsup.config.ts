import { execFileSync } from 'node:child_process';
import { defineConfig } from 'tsup';

/** The commit HEAD is at, for paysign_build_info (src/metrics/build-info.ts); `unknown` outside a git checkout. */
function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: __dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : 'unknown';
  } catch {
    return 'unknown';
  }
}

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
  // The build's commit, which the service reports; the api's build inputs (package.json) include HEAD, so a new commit rebuilds.
  define: { PAYSIGN_BUILD_COMMIT: JSON.stringify(gitCommit()) },
  // A package loaded on first use (`await import(...)`) is required as the rest are, so that the service runs the same
  // CommonJS build of it that its tests load, not the ES module build a real import() would pick. So a package that is
  // an ES module only cannot be loaded on first use: Node 20 before 20.19 cannot require it.
  esbuildOptions(options) {
    options.supported = { ...options.supported, 'dynamic-import': false };
  },
});
