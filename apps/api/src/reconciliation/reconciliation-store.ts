import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import { sqlNow, type StoreClock } from '../db/store-clock';
import { DISCREPANCY_KINDS, identityOf, type DiscrepancyKind, type FoundDiscrepancy } from './reconciliation-match';

export type RunOutcome = 'clean' | 'discrepancies' | 'failed' | 'not_applicable';

/** A discrepancy as recorded. */
export interface StoredDiscrepancy extends FoundDiscrepancy {
  id: string;
  provider: string;
  day: string;
  status: 'open' | 'resolved';
  firstSeenAt: string;
  firstRunId: string;
  lastRunId: string;
  resolution: string | null;
  resolutionReason: string | null;
  resolvedBy: string | null;
  correctionJournalId: string | null;
}

interface DiscrepancyRow {
  id: string;
  provider: string;
  day: string;
  kind: DiscrepancyKind;
  object_type: FoundDiscrepancy['objectType'];
  merchant_id: string | null;
  our_reference: string | null;
  provider_reference: string | null;
  their_reference: string | null;
  ours: unknown;
  theirs: unknown;
  status: 'open' | 'resolved';
  first_seen_at: Date | string;
  first_run_id: string;
  last_run_id: string;
  resolution: string | null;
  resolution_reason: string | null;
  resolved_by: string | null;
  correction_journal_id: string | null;
}

const SELECT = `SELECT id::text AS id, provider, to_char(day, 'YYYY-MM-DD') AS day, kind, object_type, merchant_id, our_reference, provider_reference, their_reference, ours, theirs, status,
  first_seen_at, first_run_id::text AS first_run_id, last_run_id::text AS last_run_id, resolution, resolution_reason, resolved_by, correction_journal_id::text AS correction_journal_id FROM reconciliation_discrepancies`;

// node-postgres parses jsonb; a PGlite driver may give the text.
const json = (value: unknown): Record<string, unknown> | null => (typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? null) as Record<string, unknown> | null));

const discrepancyOf = (row: DiscrepancyRow): StoredDiscrepancy => ({
  id: row.id,
  provider: row.provider,
  day: row.day,
  kind: row.kind,
  objectType: row.object_type,
  merchantId: row.merchant_id,
  ourReference: row.our_reference,
  providerReference: row.provider_reference,
  theirReference: row.their_reference,
  ours: json(row.ours),
  theirs: json(row.theirs),
  status: row.status,
  firstSeenAt: toDate(row.first_seen_at).toISOString(),
  firstRunId: row.first_run_id,
  lastRunId: row.last_run_id,
  resolution: row.resolution,
  resolutionReason: row.resolution_reason,
  resolvedBy: row.resolved_by,
  correctionJournalId: row.correction_journal_id,
});

/**
 * Reconciliation's tables (RECONCILIATION): its runs, its discrepancies, and
 * the row instances claim the daily run on. Every instance reads the same
 * rows, so each reports the same open discrepancies and last good run.
 */
export class ReconciliationStore {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
  ) {}

  /**
   * Claims the run of `day` when some of `providers` has no completed run
   * of it and none was claimed within `retryAfterSeconds`: one statement on
   * one row, so of instances that try at once one claims it. A claim whose
   * run fails is tried again `retryAfterSeconds` later.
   */
  async claim(day: string, providers: readonly string[], retryAfterSeconds: number): Promise<boolean> {
    const params: unknown[] = [day, retryAfterSeconds, [...providers], providers.length];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.client.query(
      `UPDATE reconciliation_schedule SET claimed_day = $1::date, claimed_at = ${now}
       WHERE id = 1 AND (claimed_day IS DISTINCT FROM $1::date OR claimed_at <= ${now} - $2 * interval '1 second')
         AND (SELECT count(DISTINCT provider) FROM reconciliation_runs WHERE day = $1::date AND provider = ANY($3::text[]) AND outcome IN ('clean', 'discrepancies', 'not_applicable')) < $4
       RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  /** The providers of `providers` with a completed run of `day`. */
  async completed(day: string, providers: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.client.query<{ provider: string }>(
      "SELECT DISTINCT provider FROM reconciliation_runs WHERE day = $1::date AND provider = ANY($2::text[]) AND outcome IN ('clean', 'discrepancies', 'not_applicable')",
      [day, [...providers]],
    );
    return new Set(rows.map((row) => row.provider));
  }

  async startRun(day: string, provider: string, trigger: 'job' | 'command'): Promise<string> {
    const params: unknown[] = [day, provider, trigger];
    const { rows } = await this.client.query<{ id: string }>(
      `INSERT INTO reconciliation_runs (day, provider, trigger, outcome, started_at) VALUES ($1::date, $2, $3, 'running', ${sqlNow(this.storeClock, params)}) RETURNING id::text AS id`,
      params,
    );
    return (rows[0] as { id: string }).id;
  }

  async finishRun(runId: string, outcome: RunOutcome, counts: unknown, error?: string): Promise<void> {
    const params: unknown[] = [runId, outcome, JSON.stringify(counts ?? null), error ?? null];
    await this.client.query(`UPDATE reconciliation_runs SET outcome = $2, counts = $3::jsonb, error = $4, finished_at = ${sqlNow(this.storeClock, params)} WHERE id = $1`, params);
  }

  /**
   * Records each discrepancy of a run once: one already recorded is seen
   * again (its last run and what each side says now), and one an operator
   * resolved stays resolved. Resolves every one of them as now stored.
   */
  async record(runId: string, provider: string, day: string, found: readonly FoundDiscrepancy[]): Promise<StoredDiscrepancy[]> {
    if (found.length === 0) return [];
    return this.client.transaction(async (tx) => {
      const ids: string[] = [];
      for (const discrepancy of found) {
        const params: unknown[] = [provider, identityOf(discrepancy), day, discrepancy.kind, discrepancy.objectType, discrepancy.merchantId, discrepancy.ourReference, discrepancy.providerReference, discrepancy.theirReference, JSON.stringify(discrepancy.ours), JSON.stringify(discrepancy.theirs), runId];
        const now = sqlNow(this.storeClock, params);
        const { rows } = await tx.query<{ id: string }>(
          `INSERT INTO reconciliation_discrepancies (provider, identity, day, kind, object_type, merchant_id, our_reference, provider_reference, their_reference, ours, theirs, first_seen_at, last_seen_at, first_run_id, last_run_id)
           VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, ${now}, ${now}, $12, $12)
           ON CONFLICT ON CONSTRAINT reconciliation_discrepancy_once DO UPDATE SET
             last_seen_at = CASE WHEN reconciliation_discrepancies.status = 'open' THEN EXCLUDED.last_seen_at ELSE reconciliation_discrepancies.last_seen_at END,
             last_run_id = CASE WHEN reconciliation_discrepancies.status = 'open' THEN EXCLUDED.last_run_id ELSE reconciliation_discrepancies.last_run_id END,
             ours = CASE WHEN reconciliation_discrepancies.status = 'open' THEN EXCLUDED.ours ELSE reconciliation_discrepancies.ours END,
             theirs = CASE WHEN reconciliation_discrepancies.status = 'open' THEN EXCLUDED.theirs ELSE reconciliation_discrepancies.theirs END
           RETURNING id::text AS id`,
          params,
        );
        ids.push((rows[0] as { id: string }).id);
      }
      const { rows } = await tx.query<DiscrepancyRow>(`${SELECT} WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
      return rows.map(discrepancyOf);
    });
  }

  async list(filter: { open?: boolean; limit: number }): Promise<StoredDiscrepancy[]> {
    const { rows } = await this.client.query<DiscrepancyRow>(`${SELECT} ${filter.open ? "WHERE status = 'open'" : ''} ORDER BY id DESC LIMIT $1`, [filter.limit]);
    return rows.map(discrepancyOf);
  }

  async find(id: string, client: SqlQueryable = this.client, options: { lock?: boolean } = {}): Promise<StoredDiscrepancy | undefined> {
    const { rows } = await client.query<DiscrepancyRow>(`${SELECT} WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] && discrepancyOf(rows[0]);
  }

  /** Marks an open discrepancy resolved, on `tx`; false when it was resolved already (by another operator meanwhile). */
  async resolve(tx: SqlQueryable, id: string, resolution: { resolution: string; reason: string; actor: string; journalId: string | null }): Promise<boolean> {
    const params: unknown[] = [id, resolution.resolution, resolution.reason, resolution.actor, resolution.journalId];
    const { rows } = await tx.query(
      `UPDATE reconciliation_discrepancies SET status = 'resolved', resolution = $2, resolution_reason = $3, resolved_by = $4, correction_journal_id = $5::bigint, resolved_at = ${sqlNow(this.storeClock, params)}
       WHERE id = $1 AND status = 'open' RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  /** Open discrepancies by kind, every kind named, and when the last run that completed (clean or not) finished: what the metrics report. */
  async state(): Promise<{ open: Record<DiscrepancyKind, number>; lastSuccessSeconds: number }> {
    const { rows } = await this.client.query<{ kind: DiscrepancyKind; count: string }>("SELECT kind, count(*)::text AS count FROM reconciliation_discrepancies WHERE status = 'open' GROUP BY kind");
    const open = Object.fromEntries(DISCREPANCY_KINDS.map((kind) => [kind, Number(rows.find((row) => row.kind === kind)?.count ?? 0)])) as Record<DiscrepancyKind, number>;
    const last = await this.client.query<{ at: Date | string | null }>("SELECT max(finished_at) AS at FROM reconciliation_runs WHERE outcome IN ('clean', 'discrepancies', 'not_applicable')");
    const at = last.rows[0]?.at;
    return { open, lastSuccessSeconds: at ? toDate(at).getTime() / 1000 : 0 };
  }
}
