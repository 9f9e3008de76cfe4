import { envValues, type Env } from './env-values';

export interface ReportSettings {
  /**
   * Rows one statement of a report reads (REPORT_BATCH_ROWS): a download is
   * read in keyset batches of this many, each written out before the next is
   * read, so what one download holds in memory is one batch. Default 1000;
   * from 10 to 10000.
   */
  reportBatchRows: number;
}

export function readReports(env: Env, problems: string[]): ReportSettings {
  const { int } = envValues(env, problems);
  return { reportBatchRows: int('REPORT_BATCH_ROWS', 1000, 10, 10_000) };
}
