import type { AppConfig } from '../config/app-config';
import type { SqlClient } from '../db/sql-client';
import { openPglite, openPostgres } from '../db/sql-clients';
import type { Migration } from '../db/migrations';
import { SETTLEMENT_CURRENCIES } from '../money/settlement-currencies';
import { checkInvariants, type LedgerInvariant } from './ledger-check';
import { describeUnsettled, unsettledBalances } from './unsettled-balances';

/** What the operator's command exits with. */
export const LEDGER_CHECK_EXIT = { holds: 0, broken: 1, cannotCheck: 2 } as const;

/**
 * `node main.js ledger-check` (`npm run ledger:check` in the repository and
 * in the deployable folder): checks every invariant of the ledger in the
 * database the service's environment names, prints what it found, and
 * exits 0 when every one holds, 1 with the rows that break one. It reads
 * only: it never migrates, and refuses a database whose schema is older than
 * this build's. On PostgreSQL it runs beside the service; the embedded store
 * (DATA_DIR) has one user at a time, so stop the service first.
 */
export async function runLedgerCheck(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>, schema: readonly Migration[], invariants: readonly LedgerInvariant[], print: (line: string) => void): Promise<number> {
  let client: SqlClient;
  try {
    // No migrations: the schema is the service's to change.
    client = config.databaseUrl ? await openPostgres(config.databaseUrl, { migrations: [] }) : await openPglite(config.dataDir, { migrations: [] });
  } catch (error) {
    print(`ledger check: cannot open the payin store (${config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}): ${(error as Error).message}`);
    return LEDGER_CHECK_EXIT.cannotCheck;
  }
  try {
    const latest = Math.max(...schema.map((migration) => migration.id));
    const { rows } = await client.query<{ id: number | null }>('SELECT max(id) AS id FROM schema_migrations');
    const applied = Number(rows[0]?.id ?? 0);
    if (applied < latest) {
      print(`ledger check: the database's schema is at migration ${applied}, and this build's at ${latest}. Start the service of this build once (it migrates at boot), then check again.`);
      return LEDGER_CHECK_EXIT.cannotCheck;
    }
    const counts = await client.query<{ journals: string; entries: string; accounts: string }>(
      'SELECT (SELECT count(*) FROM ledger_journals)::text AS journals, (SELECT count(*) FROM ledger_entries)::text AS entries, (SELECT count(*) FROM ledger_accounts)::text AS accounts',
    );
    const { journals, entries, accounts } = counts.rows[0] ?? { journals: '0', entries: '0', accounts: '0' };
    print(`ledger check: ${journals} journals, ${entries} entries, ${accounts} accounts`);
    const problems = await checkInvariants(client, invariants);
    for (const { invariant } of invariants) {
      const problem = problems.find((candidate) => candidate.invariant === invariant);
      print(`${problem ? 'BROKEN' : 'holds '}  ${invariant}`);
      for (const row of problem?.rows ?? []) print(`          ${JSON.stringify(row)}`);
    }
    // A figure, not an invariant: money the operator settles by hand, which never fails the check.
    const unsettled = await unsettledBalances(client);
    if (unsettled.total > 0) print(`note    ${unsettled.total} merchant balance(s) in currencies the platform does not settle (only ${SETTLEMENT_CURRENCIES.join(', ')} does); the operator settles them outside the platform:`);
    for (const balance of unsettled.named) print(`          ${describeUnsettled(balance)}`);
    if (unsettled.total > unsettled.named.length) print(`          and ${unsettled.total - unsettled.named.length} more`);
    return problems.length === 0 ? LEDGER_CHECK_EXIT.holds : LEDGER_CHECK_EXIT.broken;
  } finally {
    await client.close();
  }
}
