// What the dashboard costs a browser to download: builds apps/dashboard (nx
// run dashboard:build, cached when nothing changed), then gzips every JS and
// CSS file of its dist/ at level 9, as a server or CDN compressing at its best
// would, and prints each file's raw and gzipped bytes and the totals.
// A benchmark, not a test: it prints what it measured and never fails on size.
//   npm run -s bench:dashboard-bundle [-- --no-build] [-- --json]
// --no-build measures the build already in apps/dashboard/dist; --json ends with one JSON line.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'apps/dashboard/dist');
const MEASURED = /\.(js|css)$/;

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });

interface FileFigures {
  file: string;
  bytes: number;
  gzipBytes: number;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function measure(file: string): FileFigures {
  const content = fs.readFileSync(file);
  return { file: path.relative(DIST, file), bytes: content.length, gzipBytes: gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length };
}

if (!values['no-build']) {
  execFileSync('npx', ['nx', 'run', 'dashboard:build', '--output-style=static'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  // The build's own log goes to standard output; a blank line parts it from the figures.
  console.log('');
}
if (!fs.existsSync(DIST)) {
  console.error(`No build at ${path.relative(ROOT, DIST)}: run without --no-build, or npx nx run dashboard:build first.`);
  process.exit(1);
}

const files = filesUnder(DIST)
  .filter((file) => MEASURED.test(file))
  .map(measure)
  .sort((a, b) => b.gzipBytes - a.gzipBytes);
const total = files.reduce((sum, file) => ({ bytes: sum.bytes + file.bytes, gzipBytes: sum.gzipBytes + file.gzipBytes }), { bytes: 0, gzipBytes: 0 });
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

const width = Math.max(5, ...files.map((file) => file.file.length));
console.log(`${'file'.padEnd(width)}  ${'raw KiB'.padStart(9)}  ${'gzip -9 KiB'.padStart(11)}  ${'gzip -9 bytes'.padStart(13)}`);
for (const file of files) {
  console.log(`${file.file.padEnd(width)}  ${kib(file.bytes).padStart(9)}  ${kib(file.gzipBytes).padStart(11)}  ${String(file.gzipBytes).padStart(13)}`);
}
console.log(`${'total'.padEnd(width)}  ${kib(total.bytes).padStart(9)}  ${kib(total.gzipBytes).padStart(11)}  ${String(total.gzipBytes).padStart(13)}`);
if (values.json) console.log(JSON.stringify({ files, totalBytes: total.bytes, totalGzipBytes: total.gzipBytes }));
