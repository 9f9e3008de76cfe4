import { loadConfig } from './config/app-config';
import { installPaths } from './config/install-paths';
import { runLedgerCheck } from './ledger/ledger-check.command';
import { LEDGER_INVARIANTS } from './ledger-invariants';
import { runMerchantsCommand } from './merchants/merchants-command';
import { SCHEMA } from './schema';
import { fail, runService } from './service';

// `node main.js` runs the service; `node main.js ledger-check` checks the ledger in its database and exits;
// `node main.js merchants <command>` edits MERCHANTS_FILE.
if (process.argv[2] === 'merchants') {
  const result = runMerchantsCommand(process.argv.slice(3), process.env);
  for (const line of result.out) (result.code === 0 ? console.log : console.error)(line);
  process.exit(result.code);
} else if (process.argv[2] === 'ledger-check') {
  // Only where the payin store is: the check needs no merchants, secrets or mode, and an operator's shell may not have them.
  const store = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR }, installPaths(__dirname));
  runLedgerCheck(store, SCHEMA, LEDGER_INVARIANTS, (line) => console.log(line)).then(
    (code) => process.exit(code),
    (error: unknown) => fail('the ledger check failed', error),
  );
} else {
  runService().catch((error: unknown) => fail('the service failed to start', error));
}
