import { createApp } from './app.factory';
import { loadConfig } from './config/app-config';
import { createLogger } from './logging/logger';
import { installPaths } from './config/install-paths';
import { runLedgerCheck } from './ledger/ledger-check.command';
import { LEDGER_INVARIANTS } from './ledger-invariants';
import { DEFAULT_POOL_LIMITS, openPglite, openPostgres } from './db/sql-clients';
import { runMerchantsCommand } from './merchants/merchants-command';
import { runOperatorCommand, type CommandResult } from './operator-commands';
import { runReconcileCommand } from './reconciliation/reconcile-command';
import { SCHEMA } from './schema';
import { fail, runService } from './service';

/** An operator's command on the app the service's environment configures. */
async function runOperator(argv: string[], command: typeof runOperatorCommand = runOperatorCommand): Promise<CommandResult> {
  const config = loadConfig(process.env, installPaths(__dirname));
  const app = await createApp({ ...config, logLevel: 'warn' }, { startJobs: false, logger: createLogger({ logLevel: 'warn' }, process.stderr) });
  try {
    return await command(argv, app);
  } finally {
    await app.close();
  }
}

// `node main.js` runs the service; `node main.js ledger-check` checks the ledger in its database and exits;
// `node main.js merchants <command>` changes the merchants in the database; `attention` and `webhooks replay` act on objects and events;
// `reconcile` compares a day of the providers' records with ours (docs/reconciliation.md).
if (process.argv[2] === 'merchants') {
  // The database the service's environment names, migrated as the service of this build would at boot.
  const store = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATABASE_MIGRATION_URL: process.env.DATABASE_MIGRATION_URL, DATA_DIR: process.env.DATA_DIR }, installPaths(__dirname));
  const open = () =>
    store.databaseUrl
      ? openPostgres(store.databaseUrl, { migrations: SCHEMA, migrationUrl: store.databaseMigrationUrl, pool: { ...DEFAULT_POOL_LIMITS, size: 2 } })
      : openPglite(store.dataDir, { migrations: SCHEMA });
  runMerchantsCommand(process.argv.slice(3), process.env, open).then(
    (result) => {
      for (const line of result.out) (result.code === 0 ? console.log : console.error)(line);
      process.exit(result.code);
    },
    (error: unknown) => fail('the merchants command failed', error),
  );
} else if (process.argv[2] === 'attention' || process.argv[2] === 'webhooks' || process.argv[2] === 'reconcile') {
  // The service itself, its jobs not running and listening nowhere: the command acts through its stores and providers.
  runOperator(process.argv.slice(process.argv[2] === 'reconcile' ? 3 : 2), process.argv[2] === 'reconcile' ? runReconcileCommand : runOperatorCommand).then(
    (result) => {
      for (const line of result.out) (result.code === 0 ? console.log : console.error)(line);
      process.exit(result.code);
    },
    (error: unknown) => fail(`the ${process.argv[2]} command failed`, error),
  );
} else if (process.argv[2] === 'ledger-check') {
  // Only where the payin store is: the check needs no merchants, secrets or mode, and an operator's shell may not have them.
  // It reads only, so DATABASE_URL's role is enough, and DATABASE_MIGRATION_URL is not read.
  const store = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR }, installPaths(__dirname));
  runLedgerCheck(store, SCHEMA, LEDGER_INVARIANTS, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (error: unknown) => fail('the ledger check failed', error),
  );
} else {
  runService().catch((error: unknown) => fail('the service failed to start', error));
}
