import { envValues, type Env } from './env-values';
import type { ServiceMode } from './service-mode';

/** The fewest records one listing of a day may hold in production before a run fails on RECONCILIATION_MAX_PAGES: a busy day must fit. */
const PRODUCTION_MIN_RECORDS_PER_LISTING = 10_000;

export interface ReconciliationConfig {
  /** The UTC hour from which each day's run reconciles the day before (RECONCILIATION_HOUR). Default 2; from 0 to 23. */
  hour: number;
  /** The longest one call for a page of the provider's records may take (RECONCILIATION_PROVIDER_TIMEOUT_MS). Default 30000; from 1000 to 120000. */
  providerTimeoutMs: number;
  /** Records asked for per page of a listing (RECONCILIATION_PAGE_SIZE). Default 100; from 10 to 1000. */
  pageSize: number;
  /** The most pages one listing may take before the run fails, never cut short (RECONCILIATION_MAX_PAGES). Default 500; from 1 to 100000. */
  maxPages: number;
}

export function readReconciliation(env: Env, mode: ServiceMode, problems: string[]): { reconciliation: ReconciliationConfig } {
  const { int } = envValues(env, problems);
  const reconciliation = {
    hour: int('RECONCILIATION_HOUR', 2, 0, 23),
    providerTimeoutMs: int('RECONCILIATION_PROVIDER_TIMEOUT_MS', 30_000, 1000, 120_000),
    pageSize: int('RECONCILIATION_PAGE_SIZE', 100, 10, 1000),
    maxPages: int('RECONCILIATION_MAX_PAGES', 500, 1, 100_000),
  };
  if (mode === 'production' && reconciliation.pageSize * reconciliation.maxPages < PRODUCTION_MIN_RECORDS_PER_LISTING) {
    problems.push(`RECONCILIATION_PAGE_SIZE × RECONCILIATION_MAX_PAGES must be at least ${PRODUCTION_MIN_RECORDS_PER_LISTING} in production (got ${reconciliation.pageSize * reconciliation.maxPages}): a day with more records than that would fail every run`);
  }
  return { reconciliation };
}
