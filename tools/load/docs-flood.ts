// A merchant's signed latency while another client floods the docs bundle
// (918 KiB of Redoc) over 16 connections: p95 of signed GET banks, idle and
// during the flood, on the built service started here on loopback, once with
// the default per-address limit on the unsigned pages and once with it lifted
// (what serving the bundle itself costs). With two or more cores the service
// and the merchant's client run on core 0, and the flood (autocannon, its own
// process) on core 1, through taskset: an attacker's CPU is neither the
// service's nor the merchant's, so only what the flood costs the service
// shows in the merchant's latency. It stops by itself.
// A load tool, not a test: it prints what it measured and never fails on timing.
//   npm run -s load:docs-flood [-- --seconds 5]
import { parseArgs } from 'node:util';
import { measureFlood, prepareFlood, type FloodTarget } from './route-flood';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const SECONDS = Number(values.seconds);

const BUNDLE: FloodTarget = {
  path: async (url) => {
    const page = await (await fetch(`${url}/payment/docs`)).text();
    return /src="([^"]*redoc\.standalone[^"]*)"/.exec(page)?.[1] ?? '/payment/docs/assets/redoc.standalone.js';
  },
  autocannonOptions: [],
  describe: (path) => `flood of ${path}`,
};

async function main(): Promise<void> {
  prepareFlood();
  await measureFlood('default limits on unsigned pages (600 per address per minute, of which 30 for the docs scripts)', {}, BUNDLE, SECONDS);
  await measureFlood('limits lifted: what serving the bundle costs', { RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_DOCS_ASSETS_PER_ADDRESS_PER_MINUTE: '1000000' }, BUNDLE, SECONDS);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
