// Restore drills: payins written through the built service are backed up and
// restored by the commands of the operations guide's "Backups", read from the
// guide and run as written; the service then boots on what was restored and
// answers for them as before. The dump is readable by its owner alone, and
// the scheduled restore drill (tools/scripts/restore-drill.sh), run as the
// guide runs it, passes on a real dump and fails, saying why, on a broken
// one, a stale one and none, leaving no scratch database behind.
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
const RESTORE_DRILL = path.resolve(__dirname, '../../../tools/scripts/restore-drill.sh');

/** A login shell's usual umask, under which a new file is readable by every user (0644): the guide's commands must tighten it. */
const OPERATOR_UMASK = '0022';

/** One origin for every service of a drill, so that a restored payin's checkout link is the one it was given. */
const SERVICE_ENV = { PUBLIC_BASE_URL: 'https://pay.example.com' };

/** Two boots of the service, a backup, a restore and a ledger check: seconds on PostgreSQL, more on a busy machine. */
const POSTGRES_DRILL_TIMEOUT_MS = 60_000;
/** One restore drill: a restore, a ledger check and a count, seconds; the setup boots the service once. */
const RESTORE_DRILL_TIMEOUT_MS = 60_000;
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
  const run = operatorShell(block, workDir, variables);
  if (run.status !== 0) throw new Error(`The guide's commands failed (exit ${run.status}):\n${block}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** Runs a block of the guide as runAsOperator does, in a shell of the usual umask, and answers how it ended. */
function operatorShell(block: string, workDir: string, variables: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  // node on the PATH as on an operator's host: the drill runs the service's ledger check with it.
  const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`;
  // No input, as from a scheduler: on a socket for its input, bash would take itself for a remote shell and read the host's bashrc.
  return spawnSync('bash', ['-euo', 'pipefail', '-c', `umask ${OPERATOR_UMASK}\n${block}`], { cwd: workDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH, HOME: process.env.HOME, ...variables } });
}

function operatorWorkDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-backup-drill-'));
  fs.symlinkSync(MAIN, path.join(dir, 'main.js'));
  // The script the deployable folder ships (tools/scripts/deploy-build.js), and its restore drill, beside main.js.
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, scripts: { 'ledger:check': 'node main.js ledger-check' } }));
  fs.copyFileSync(RESTORE_DRILL, path.join(dir, 'restore-drill.sh'));
  fs.chmodSync(path.join(dir, 'restore-drill.sh'), 0o755);
  return dir;
}

/** The dumps the guide's pg_dump commands left in `backupDir`, which they create readable by their owner alone, and no partial one. */
function expectPrivateDumps(backupDir: string, count: number): string[] {
  expect(fs.statSync(backupDir).mode & 0o777).toBe(0o700);
  const files = fs.readdirSync(backupDir).sort();
  expect(files).toEqual(Array.from({ length: count }, () => expect.stringMatching(/^paysign-\d{8}T\d{6}Z\.dump$/)));
  for (const file of files) expect([file, fs.statSync(path.join(backupDir, file)).mode & 0o777]).toEqual([file, 0o600]);
  return files.map((file) => path.join(backupDir, file));
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
      const backupDir = path.join(workDir, 'backups');
      try {
        written = await writePayins(service, 'pg-backup');
        runAsOperator(backupCommands('pg_dump'), workDir, { DATABASE_URL: live.url, BACKUP_DIR: backupDir });
        expect(await service.stop()).toBe(0);
      } finally {
        await service.dispose();
      }
      expectPrivateDumps(backupDir, 1);
      const printed = runAsOperator(backupCommands('pg_restore'), workDir, { RESTORED_DATABASE_URL: restoredDatabase.url, BACKUP_DIR: backupDir });
      expectLedgerHolds(printed);
      await expectRestored({ databaseUrl: restoredDatabase.url }, written);
    } finally {
      await live.drop();
      await restoredDatabase.drop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }, POSTGRES_DRILL_TIMEOUT_MS);
});

/** The scratch databases of restore drills on the test server, which a drill must leave as it found them. */
async function drillDatabases(): Promise<string[]> {
  const { Pool } = await import('pg');
  const admin = new Pool({ connectionString: DATABASE_URL });
  try {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'paysign\\_drill\\_%' ORDER BY datname");
    return rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
}

/** `text` as a regular expression matches it, and nothing else. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rows of the main tables, as the drill counts them, in `databaseUrl`. */
async function mainTableCounts(databaseUrl: string): Promise<string> {
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: databaseUrl });
  try {
    const counts: string[] = [];
    for (const table of ['merchants', 'payins', 'payouts', 'refunds', 'ledger_journals', 'ledger_entries', 'outbox_events']) {
      const { rows } = await pool.query<{ count: string }>(`SELECT count(*)::text AS count FROM ${table}`);
      counts.push(`${table}=${rows[0]?.count}`);
    }
    return counts.join(' ');
  } finally {
    await pool.end();
  }
}

describeWithStore('PostgreSQL', DATABASE_URL, 'the restore drill, on dumps the operations guide takes', () => {
  let workDir: string;
  let live: { url: string; drop: () => Promise<void> };
  let broken: { url: string; drop: () => Promise<void> } | undefined;
  /** Where the guide's pg_dump wrote a dump of the service's database. */
  let backupDir: string;
  let dump: string;

  /** Runs the guide's drill command in the operator's folder; the drill server is the test server. */
  const drill = (variables: Record<string, string>) => operatorShell(backupCommands('restore-drill.sh'), workDir, { DRILL_ADMIN_URL: DATABASE_URL, ...variables });
  /** A folder of backups for one case. */
  const folder = (name: string) => {
    const dir = path.join(workDir, name);
    fs.mkdirSync(dir, { mode: 0o700 });
    return dir;
  };

  beforeAll(async () => {
    workDir = operatorWorkDir();
    live = await createPrivateDatabase('paysign_backup_for_drill');
    const service = await startBuiltService(SERVICE_ENV, { databaseUrl: live.url });
    try {
      await writePayins(service, 'drill');
      expect(await service.stop()).toBe(0);
    } finally {
      await service.dispose();
    }
    backupDir = path.join(workDir, 'backups');
    runAsOperator(backupCommands('pg_dump'), workDir, { DATABASE_URL: live.url, BACKUP_DIR: backupDir });
    [dump] = expectPrivateDumps(backupDir, 1) as [string];
  }, RESTORE_DRILL_TIMEOUT_MS);

  afterAll(async () => {
    await live?.drop();
    await broken?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('passes on the newest dump: restored into a scratch database, the ledger checked, the main tables counted, and the scratch database dropped', async () => {
    const before = await drillDatabases();
    const run = drill({ BACKUP_DIR: backupDir });
    expect([run.status, run.stderr]).toEqual([0, '']);
    // One line, the verdict; the rows as the service's database holds them.
    const counts = await mainTableCounts(live.url);
    expect(run.stdout).toMatch(
      new RegExp(`^restore drill: PASSED ${literal(path.basename(dump))}, \\d+ s old, restored in \\d+ s into paysign_drill_\\d{14}_\\d+, dropped: [1-9]\\d* journals, [1-9]\\d* entries, [1-9]\\d* accounts, every invariant holds; ${counts}\n$`),
    );
    expect(counts).toMatch(/^merchants=[1-9]\d* payins=2 /);
    expect(await drillDatabases()).toEqual(before);
  }, RESTORE_DRILL_TIMEOUT_MS);

  it('fails, naming the broken invariant, on a dump whose ledger does not hold, and drops the scratch database all the same', async () => {
    // The service's database, restored and then written around the ledger: an entry its journal does not balance.
    broken = await createPrivateDatabase('paysign_broken_backup');
    const restore = spawnSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${broken.url}`, dump], { encoding: 'utf8' });
    expect([restore.status, restore.stderr]).toEqual([0, '']);
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: broken.url });
    try {
      await pool.query(
        `INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at)
         SELECT journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at FROM ledger_entries ORDER BY id LIMIT 1`,
      );
    } finally {
      await pool.end();
    }
    const brokenDir = path.join(workDir, 'broken-backups');
    runAsOperator(backupCommands('pg_dump'), workDir, { DATABASE_URL: broken.url, BACKUP_DIR: brokenDir });
    const [brokenDump] = expectPrivateDumps(brokenDir, 1) as [string];

    const before = await drillDatabases();
    const run = drill({ BACKUP_DIR: brokenDir });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^restore drill: FAILED ${literal(path.basename(brokenDump))}: the ledger check exited 1: BROKEN each journal sums to zero(;BROKEN [^\n]+)*\n$`));
    // The ledger check's own lines, with the rows at fault, go to stderr.
    expect(run.stderr).toContain('BROKEN  each journal sums to zero');
    expect(await drillDatabases()).toEqual(before);
  }, RESTORE_DRILL_TIMEOUT_MS);

  it('fails when the newest dump is older than DRILL_MAX_AGE_SECONDS, or when there is none: the backups have stopped', async () => {
    const before = await drillDatabases();
    const staleDir = folder('stale-backups');
    const stale = path.join(staleDir, path.basename(dump));
    fs.copyFileSync(dump, stale);
    // Written two days ago: over the default 26 h.
    const twoDaysAgo = new Date(fs.statSync(dump).mtimeMs - 2 * 86_400_000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const staleRun = drill({ BACKUP_DIR: staleDir });
    expect(staleRun.status).toBe(1);
    expect(staleRun.stdout).toMatch(new RegExp(`^restore drill: FAILED ${literal(path.basename(dump))} is \\d+ s old, over DRILL_MAX_AGE_SECONDS \\(93600\\): are the backups running\\?\n$`));
    // Allowed three days, the same dump passes.
    expect(drill({ BACKUP_DIR: staleDir, DRILL_MAX_AGE_SECONDS: String(3 * 86_400) }).status).toBe(0);

    const emptyRun = drill({ BACKUP_DIR: folder('no-backups') });
    expect([emptyRun.status, emptyRun.stdout]).toEqual([1, `restore drill: FAILED no dump in BACKUP_DIR (${path.join(workDir, 'no-backups')}): are the backups running?\n`]);
    expect(await drillDatabases()).toEqual(before);
  }, RESTORE_DRILL_TIMEOUT_MS);

  it('cannot run, and says what is missing, without the drill server', () => {
    const run = operatorShell(backupCommands('restore-drill.sh'), workDir, { BACKUP_DIR: backupDir });
    expect([run.status, run.stdout, run.stderr]).toEqual([2, '', 'restore drill: cannot run: set DRILL_ADMIN_URL to a role that may create databases on the drill server\n']);
  });
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
