import type { Logger } from 'pino';
import type { SqlClient } from '../db/sql-client';
import type { ProviderRecord, ProviderSettlement, RecordObjectType } from '../providers/ports/provider-records.port';
import type { ProviderRegistry } from '../providers/provider-registry';
import { ourRecordsByReference, ourRecordsOfDay } from './our-records';
import { matchDay, RECORD_OBJECT_TYPES, type MatchCounts, type OurRecord } from './reconciliation-match';
import type { ReconciliationStore, RunOutcome, StoredDiscrepancy } from './reconciliation-store';

/** How far either side of the day the provider's records are listed: a record made a moment before or after midnight at one side and the other. */
const DAY_EDGE_MARGIN_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface ReconciliationSettings {
  pageSize: number;
  maxPages: number;
  providerTimeoutMs: number;
}

/** What one provider's run of a day came to. */
export interface ProviderRun {
  provider: string;
  runId: string;
  outcome: RunOutcome;
  counts?: MatchCounts;
  settlements?: { count: number; byCurrency: Record<string, { totalMinor: string; feesMinor: string }> };
  discrepancies: StoredDiscrepancy[];
  error?: string;
}

export interface DayReport {
  day: string;
  runs: ProviderRun[];
}

/** A `YYYY-MM-DD` day as the UTC instants it spans. */
export function dayWindow(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00.000Z`);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/**
 * Reconciles a day (a UTC day) of each provider's records with ours, both
 * ways, and records what disagrees. A provider with no records of its own
 * (no ProviderRecords adapter: the sandbox) is recorded not applicable. A
 * provider's failure mid-run (a listing it cannot read to its end) records
 * the run failed, never clean, and records none of its discrepancies: a
 * part of a listing proves nothing. Nothing is ever corrected here.
 */
export class Reconciler {
  constructor(
    private readonly client: SqlClient,
    private readonly providers: ProviderRegistry,
    private readonly store: ReconciliationStore,
    private readonly settings: ReconciliationSettings,
    private readonly logger: Logger,
  ) {}

  /** The providers a day is reconciled for: every one configured. */
  get providerIds(): string[] {
    return this.providers.ids;
  }

  async reconcileDay(day: string, options: { trigger: 'job' | 'command'; signal: AbortSignal; only?: readonly string[] }): Promise<DayReport> {
    const runs: ProviderRun[] = [];
    for (const provider of options.only ?? this.providerIds) runs.push(await this.reconcileProvider(day, provider, options));
    return { day, runs };
  }

  private async reconcileProvider(day: string, provider: string, options: { trigger: 'job' | 'command'; signal: AbortSignal }): Promise<ProviderRun> {
    const runId = await this.store.startRun(day, provider, options.trigger);
    const records = this.providers.records(provider);
    if (!records) {
      await this.store.finishRun(runId, 'not_applicable', null);
      return { provider, runId, outcome: 'not_applicable', discrepancies: [] };
    }
    const window = dayWindow(day);
    const listed = { from: new Date(window.from.getTime() - DAY_EDGE_MARGIN_MS), to: new Date(window.to.getTime() + DAY_EDGE_MARGIN_MS) };
    const listing = { signal: options.signal, pageSize: this.settings.pageSize, maxPages: this.settings.maxPages, timeoutMs: this.settings.providerTimeoutMs };
    try {
      const theirs: ProviderRecord[] = [];
      const ours: OurRecord[] = [];
      for (const objectType of RECORD_OBJECT_TYPES) {
        theirs.push(...(await records.list(objectType, listed, listing)));
        ours.push(...(await ourRecordsOfDay(this.client, provider, objectType, window)));
      }
      const settlements = await records.settlements(window, listing);
      const oursElsewhere = await this.oursElsewhere(provider, ours, theirs);
      const { counts, discrepancies } = matchDay({ day: window, ours, theirs, oursElsewhere });
      const stored = await this.store.record(runId, provider, day, discrepancies);
      const outcome: RunOutcome = stored.length === 0 ? 'clean' : 'discrepancies';
      const figures = settlementFigures(settlements);
      await this.store.finishRun(runId, outcome, { ...counts, settlements: figures });
      this.logger[outcome === 'clean' ? 'info' : 'warn']({ job: 'reconciliation', day, provider, runId, discrepancies: stored.length }, `reconciliation of ${day} at ${provider}: ${outcome}`);
      return { provider, runId, outcome, counts, settlements: figures, discrepancies: stored };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.store.finishRun(runId, 'failed', null, message.slice(0, 500));
      this.logger.error({ job: 'reconciliation', day, provider, runId, err: error }, `reconciliation of ${day} at ${provider} failed: nothing is known of the day until a run completes`);
      return { provider, runId, outcome: 'failed', discrepancies: [], error: message };
    }
  }

  /** Ours of other days that the provider's records of this day name. */
  private async oursElsewhere(provider: string, ours: readonly OurRecord[], theirs: readonly ProviderRecord[]): Promise<Map<string, OurRecord>> {
    const known = new Set(ours.map((record) => `${record.objectType}:${record.providerReference}`));
    const found = new Map<string, OurRecord>();
    for (const objectType of RECORD_OBJECT_TYPES) {
      const wanted = theirs.filter((record) => record.objectType === objectType && record.providerReference !== null && !known.has(`${objectType}:${record.providerReference}`)).map((record) => record.providerReference as string);
      for (const record of await ourRecordsByReference(this.client, provider, objectType as RecordObjectType, wanted)) found.set(`${objectType}:${record.providerReference}`, record);
    }
    return found;
  }
}

/** The provider's settlements of the day, as figures: no settlement of ours is matched to them (docs/reconciliation.md). */
function settlementFigures(settlements: readonly ProviderSettlement[]): NonNullable<ProviderRun['settlements']> {
  const byCurrency: Record<string, { totalMinor: string; feesMinor: string }> = {};
  for (const settlement of settlements) {
    const sum = byCurrency[settlement.currency] ?? { totalMinor: '0', feesMinor: '0' };
    byCurrency[settlement.currency] = { totalMinor: (BigInt(sum.totalMinor) + settlement.totalMinor).toString(), feesMinor: (BigInt(sum.feesMinor) + settlement.feesMinor).toString() };
  }
  return { count: settlements.length, byCurrency };
}
