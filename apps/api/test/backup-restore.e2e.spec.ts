// Restore drills: payins written through the built service are backed up and
// restored by the commands of the operations guide's "Backups", read from the
// guide and run as written; the service then boots on what was restored and
// answers for them as before.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService, type BuiltServiceOptions } from './support/built-service';
import { MERCHANT_A } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';

const PAYINS = '/payment/api/payins';
const MAIN = path.resolve(__dirname, '../dist/main.js');
const OPERATIONS_GUIDE = path.resolve(__dirname, '../../../docs/operations.md');

/** One origin for every service of a drill, so that a restored payin's checkout link is the one it was given. */
const SERVICE_ENV = { PUBLIC_BASE_URL: 'https://pay.example.com' };

/** Two boots of the service, a backup, a restore and a ledger check: seconds on PostgreSQL, more on a busy machine. */
const POSTGRES_DRILL_TIMEOUT_MS = 60_000;
/** A new embedded database is created in WebAssembly at the first boot: seconds, more on a busy machine. */
const EMBEDDED_DRILL_TIMEOUT_MS = 120_000;

/** The shell block of the guide's "Backups" that runs `command`, dedented as a list item's block is indented. */
function backupCommands(command: string): string {
  const guide = fs.readFileSync(OPERATIONS_GUIDE, 'utf8');
  const section = guide.slice(guide.indexOf('\n## Backups\n'), guide.indexOf('\n## ', guide.indexOf('\n## Backups\n') + 1));
  const blocks = [...section.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent = '', body = '']) => body.replace(new RegExp(`^${indent}`, 'gm'), ''));
  const block = blocks.find((candidate) => candidate.includes(command));
  if (!block) throw new Error(`docs/operations.md "Backups" has no sh block running ${command}: the drill runs the guide's commands as written`);
  return block;
}

/**
 * Runs a block of the guide in `workDir`, with only `variables` and a PATH set,
 * as an operator's shell in the deployable folder would: its package.json has
 * that folder's `npm run ledger:check`, on this build.
 */
function runAsOperator(block: string, workDir: string, variables: Record<string, string>): string {
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block], { cwd: workDir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...variables } });
  if (run.status !== 0) throw new Error(`The guide's commands failed (exit ${run.status}):\n${block}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

function operatorWorkDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-backup-drill-'));
  fs.symlinkSync(MAIN, path.join(dir, 'main.js'));
  // The script the deployable folder ships (tools/scripts/deploy-build.js).
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, scripts: { 'ledger:check': 'node main.js ledger-check' } }));
  return dir;
}

function expectLedgerHolds(printed: string): void {
  expect(printed).toMatch(/^ledger check: [1-9]\d* journals, \d+ entries, \d+ accounts$/m);
  expect(printed).not.toContain('BROKEN');
}

/** A paid payin and a pending one, written through the service, as the service then answers for them. */
async function writePayins(service: BuiltService, label: string): Promise<Array<Record<string, unknown>>> {
  const references = [`${label}-paid-${Date.now()}`, `${label}-pending-${Date.now()}`];
  for (const reference of references) {
    const created = await signedCall(service.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', customerName: 'Ada Obi', reference }), credential: MERCHANT_A });
    expect(created.status).toBe(201);
  }
  expect((await signedCall(service.baseUrl, { path: `${PAYINS}/${references[0]}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A })).status).toBe(200);
  return readPayins(service, references);
}

async function readPayins(service: BuiltService, references: string[]): Promise<Array<Record<string, unknown>>> {
  const payins: Array<Record<string, unknown>> = [];
  for (const reference of references) {
    const read = await signedCall(service.baseUrl, { path: `${PAYINS}/${reference}`, credential: MERCHANT_A });
    expect(read.status).toBe(200);
    payins.push(read.json);
  }
  return payins;
}

/** Boots the service on the restored store and checks it answers for the payins as before, the pending one's checkout link included. */
async function expectRestored(options: BuiltServiceOptions, written: Array<Record<string, unknown>>): Promise<void> {
  const restored = await startBuiltService(SERVICE_ENV, options);
  try {
    expect(await readPayins(restored, written.map((payin) => String(payin.reference)))).toEqual(written);
    expect(written.map((payin) => payin.status)).toEqual(['SUCCESSFUL', 'PENDING']);
    const checkoutPath = new URL(String(written[1]?.checkoutUrl)).pathname;
    expect((await fetch(`${restored.baseUrl}${checkoutPath}`)).status).toBe(200);
    expect(await restored.stop()).toBe(0);
  } finally {
    await restored.dispose();
  }
}

describeWithStore('PostgreSQL', DATABASE_URL, 'backup and restore of PostgreSQL, by the operations guide', () => {
  it('restores a pg_dump taken while the service runs into a new database, which the service then serves', async () => {
    const workDir = operatorWorkDir();
    const live = await createPrivateDatabase('paysign_backup');
    const restoredDatabase = await createPrivateDatabase('paysign_restored');
    try {
      const service = await startBuiltService(SERVICE_ENV, { databaseUrl: live.url });
      let written: Array<Record<string, unknown>>;
      try {
        written = await writePayins(service, 'pg-backup');
        runAsOperator(backupCommands('pg_dump'), workDir, { DATABASE_URL: live.url });
        expect(await service.stop()).toBe(0);
      } finally {
        await service.dispose();
      }
      const printed = runAsOperator(backupCommands('pg_restore'), workDir, { RESTORED_DATABASE_URL: restoredDatabase.url });
      expectLedgerHolds(printed);
      await expectRestored({ databaseUrl: restoredDatabase.url }, written);
    } finally {
      await live.drop();
      await restoredDatabase.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, POSTGRES_DRILL_TIMEOUT_MS);
});

describe('backup and restore of the embedded store, by the operations guide', () => {
  it('restores an archive of DATA_DIR, taken while the service is stopped, into a new DATA_DIR, which the service then serves', async () => {
    const workDir = operatorWorkDir();
    const dataDir = path.join(workDir, 'data');
    const restoredDataDir = path.join(workDir, 'restored-data');
    try {
      const service = await startBuiltService(SERVICE_ENV, { dataDir });
      let written: Array<Record<string, unknown>>;
      try {
        written = await writePayins(service, 'embedded-backup');
        expect(await service.stop()).toBe(0);
      } finally {
        await service.dispose();
      }
      runAsOperator(backupCommands('tar --create'), workDir, { DATA_DIR: dataDir });
      const printed = runAsOperator(backupCommands('tar --extract'), workDir, { RESTORED_DATA_DIR: restoredDataDir });
      expectLedgerHolds(printed);
      await expectRestored({ dataDir: restoredDataDir }, written);
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, EMBEDDED_DRILL_TIMEOUT_MS);
});
