import { ACCOUNT_ENQUIRIES } from './accounts/accounts.migrations';
import type { Migration } from './db/migrations';
import { DASHBOARD } from './dashboard/dashboard.migrations';
import { CREATE_OUTBOX, OUTBOX_OF_ANY_OBJECT } from './events/events.migrations';
import { LEDGER, LEDGER_CHECKS, LEDGER_REPORT_INDEX } from './ledger/ledger.migrations';
import { PAYOUT_APPROVALS_AND_BATCHES, PAYOUT_BATCH_BUILDING, PAYOUT_DAILY_TOTALS, PAYOUT_PROVIDER_OF_RECORD, PAYOUTS, SANDBOX_PAYOUT_TRANSFERS } from './payouts/payouts.migrations';
import { CREATE_PAYINS, PAYIN_ATTEMPTS, PAYIN_LIFECYCLE, PAYIN_PROVIDER_OF_RECORD, PAYIN_PROVIDER_PAYMENTS, PAYIN_SEARCH_INDEXES, PAYIN_VERSION } from './payins/payins.migrations';
import { PROVIDER_MIGRATIONS } from './providers/provider-list';
import { MERCHANTS } from './merchants/merchants.migrations';
import { RECONCILIATION } from './reconciliation/reconciliation.migrations';
import { REFUNDS } from './refunds/refunds.migrations';
import { SETTLEMENTS } from './settlements/settlements.migrations';
import { ATTEMPTS_ALLOWED, CLAIMS_BY_MERCHANT, RECEIVER_CIRCUITS } from './webhooks/webhooks.migrations';

/**
 * The database's schema: one ordered list of every feature's migrations,
 * each owned by its feature's folder. Append; never edit a shipped one.
 *
 * Expand, then contract. During a rolling upgrade, and after a rollback, the
 * previous release runs on the schema this one migrated, so a migration only
 * adds what the previous release can ignore: a table, a column that is
 * nullable or has a default, an index. A column or table leaves, and a
 * constraint tightens, only in a release after the last one that uses it.
 * docs/operations.md "Upgrades and rollback"; rolling-upgrade.e2e.spec.ts
 * runs the previous release on this schema. A provider's own tables come
 * from its folder (PROVIDER_MIGRATIONS), in the same order of ids.
 */
export const SCHEMA: readonly Migration[] = [
  CREATE_PAYINS,
  PAYIN_LIFECYCLE,
  CREATE_OUTBOX,
  OUTBOX_OF_ANY_OBJECT,
  PAYIN_VERSION,
  ATTEMPTS_ALLOWED,
  RECEIVER_CIRCUITS,
  LEDGER,
  ACCOUNT_ENQUIRIES,
  PAYOUTS,
  SANDBOX_PAYOUT_TRANSFERS,
  PAYOUT_APPROVALS_AND_BATCHES,
  PAYIN_PROVIDER_PAYMENTS,
  ...PROVIDER_MIGRATIONS,
  PAYIN_ATTEMPTS,
  CLAIMS_BY_MERCHANT,
  PAYOUT_DAILY_TOTALS,
  PAYIN_PROVIDER_OF_RECORD,
  PAYOUT_PROVIDER_OF_RECORD,
  REFUNDS,
  MERCHANTS,
  LEDGER_CHECKS,
  SETTLEMENTS,
  RECONCILIATION,
  LEDGER_REPORT_INDEX,
  DASHBOARD,
  PAYIN_SEARCH_INDEXES,
  PAYOUT_BATCH_BUILDING,
].sort((a, b) => a.id - b.id);
