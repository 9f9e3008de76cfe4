import type { AnyReport } from '../db/report-definition';
import { BALANCE_ENTRIES_REPORT } from '../ledger/balance-entries.report';
import { PAYINS_REPORT } from '../payins/payins.report';
import { PAYOUTS_REPORT } from '../payouts/payouts.report';
import { REFUNDS_REPORT } from '../refunds/refunds.report';
import { SETTLEMENTS_REPORT } from '../settlements/settlements.report';

/**
 * Every report, by name: what /payment/api/reports/{name}.csv serves. Each is
 * declared beside its table (db/report-definition.ts); their headers, with
 * the cursor column every report ends with, are in the contract's examples
 * and docs/reports.md, and reports-doc.spec.ts checks the three agree.
 */
export const REPORTS: ReadonlyMap<string, AnyReport> = new Map(
  ([PAYINS_REPORT, PAYOUTS_REPORT, REFUNDS_REPORT, BALANCE_ENTRIES_REPORT, SETTLEMENTS_REPORT] as AnyReport[]).map((report) => [report.name, report]),
);
