import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { JobRunner } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { ServiceMetrics } from '../metrics/service-metrics';
import { countBroken, type LedgerInvariant } from './ledger-check';
import { LedgerCheckStore } from './ledger-check-store';

/** Injection token of every invariant the scheduled check counts: the ledger's own and each product's (ledger-invariants.ts at the root of src). */
export const LedgerInvariants = Symbol('LedgerInvariants');

/** How often each instance asks whether a check is due; the check itself runs once per LEDGER_CHECK_INTERVAL_SECONDS across instances. */
const LEDGER_CHECK_POLL_MS = 60_000;

/**
 * Checks the ledger's invariants as the `ledger-check` job, once per
 * LEDGER_CHECK_INTERVAL_SECONDS across every instance: each instance polls
 * (one short statement), the one whose claim succeeds counts the rows that
 * break each invariant under the check's advisory lock, and records them in
 * the store, from which every instance's metrics read. The check reads
 * only, one statement per invariant, each stopped at
 * LEDGER_CHECK_STATEMENT_TIMEOUT_MS and holding its tables' share locks
 * for that statement alone; it takes no row lock, so a payment never waits
 * for it.
 */
@Injectable()
export class LedgerCheckJob implements OnModuleInit {
  private readonly intervalSeconds: number;
  private readonly statementTimeoutMs: number;

  constructor(
    private readonly store: LedgerCheckStore,
    private readonly jobs: JobRunner,
    private readonly metrics: ServiceMetrics,
    @Inject(LedgerInvariants) private readonly invariants: readonly LedgerInvariant[],
    @Inject(ServiceLogger) private readonly logger: Logger,
    @Inject(AppConfigToken) config: AppConfig,
  ) {
    this.intervalSeconds = config.ledgerCheckIntervalSeconds;
    this.statementTimeoutMs = config.ledgerCheckStatementTimeoutMs;
  }

  onModuleInit(): void {
    this.metrics.watchLedgerChecks(() => this.store.last(), { invariants: this.invariants.map(({ invariant }) => invariant), intervalSeconds: this.intervalSeconds });
    this.jobs.add({ name: 'ledger-check', intervalMs: Math.min(LEDGER_CHECK_POLL_MS, this.intervalSeconds * 1000), run: () => this.checkIfDue() });
  }

  /** One poll: the check, when it is due and this instance claims it. */
  async checkIfDue(): Promise<void> {
    const claimedAt = await this.store.claim(this.intervalSeconds);
    if (claimedAt === undefined) return;
    const startedAt = performance.now();
    const findings = await this.store.runExclusive(claimedAt, (tx) => countBroken(tx, this.invariants)).catch((error: unknown) => {
      if (isStatementTimeout(error)) {
        this.logger.error(
          { job: 'ledger-check', statementTimeoutMs: this.statementTimeoutMs },
          `ledger check stopped: one of its statements ran past LEDGER_CHECK_STATEMENT_TIMEOUT_MS (${this.statementTimeoutMs}); raise it for a ledger this size (npm run bench:ledger-check says what each statement costs). The next check is due an interval from now`,
        );
      }
      throw error;
    });
    const durationMs = Math.round(performance.now() - startedAt);
    if (findings === undefined) {
      this.logger.warn({ job: 'ledger-check' }, `ledger check skipped: the previous check still runs after LEDGER_CHECK_INTERVAL_SECONDS (${this.intervalSeconds}); the next is due an interval from now`);
      return;
    }
    const broken = Object.fromEntries(Object.entries(findings).filter(([, rows]) => rows > 0));
    if (Object.keys(broken).length === 0) {
      this.logger.info({ job: 'ledger-check', invariants: Object.keys(findings).length, durationMs }, 'ledger check: every invariant holds');
    } else {
      this.logger.error({ job: 'ledger-check', broken, durationMs }, 'ledger check: invariants broken (rows breaking each); `npm run ledger:check` names the rows, and docs/ledger.md says what each means');
    }
  }
}

/** PostgreSQL's cancel of a statement past its statement_timeout (SQLSTATE 57014), however the store wrapped it. */
function isStatementTimeout(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause === cause ? undefined : cause.cause) {
    if ((cause as { code?: unknown }).code === '57014') return true;
  }
  return false;
}
