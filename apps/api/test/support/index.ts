// Test support that other projects' integration tests use to run the real service in-process.
export { startTestApp, startProductionTestApp } from './test-app';
export type { TestApp } from './test-app';
export { MERCHANT_A, MERCHANT_A_ROTATED, MERCHANT_B, TEST_MERCHANTS_FILE, brandedMerchantsFile } from './credentials';
export type { TestCredential } from './credentials';
export { SANDBOX_ACCOUNTS } from '../../src/providers/sandbox/sandbox-accounts';
export { SANDBOX_PAYOUT_ACCOUNTS } from '../../src/providers/sandbox/sandbox-payout-accounts';
export { JobRunner } from '../../src/jobs/job-runner';
export { PayoutDispatcher } from '../../src/payouts/payout-dispatcher';
export { freePort } from './private-redis';
export { APPROVER_A, CREATOR_APPROVER_A, payoutMerchantsFile } from './payout-merchants';
export { seedPayins } from '../../bench/seed-payins';
export { SqlClient } from '../../src/db/sql-client';
export { merchantAdmin, setPayoutApproval } from './merchant-changes';
export { WebhookReceiver } from './webhook-receiver';
export { totpCodeAt } from '../../src/dashboard/totp';
export { DashboardClient, linkToken } from './dashboard-client';
export { csvObjects, parseCsv } from './csv-records';
