// The built paysign CLI deciding payouts and building batches from a CSV file, run as a person runs it, against the real service in-process.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { APPROVER_A, JobRunner, MERCHANT_A, PayoutDispatcher, payoutMerchantsFile, startTestApp, type TestApp, type TestCredential } from '@paysign/api/testing';
import { PaymentClient } from '@paysign/sdk';

const PAYSIGN = path.resolve(__dirname, '../../../libs/sdk/bin/paysign.js');

/** Runs the CLI without blocking the event loop, so that the in-process service keeps answering. */
function paysign(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [PAYSIGN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

function csvFile(lines: string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'batch-csv-')), 'payouts.csv');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('paysign payouts and batches against the real service', () => {
  let api: TestApp;
  let creator: PaymentClient;
  const envOf = (credential: TestCredential) => ({
    PAYSIGN_BASE_URL: api.baseUrl,
    PAYSIGN_API_KEY: credential.apiKey,
    PAYSIGN_SECRET_KEY: credential.secretKey,
    PAYSIGN_MERCHANT_ID: credential.merchantId,
    PAYSIGN_TENANT_ID: credential.tenantId,
  });
  beforeAll(async () => {
    if (!fs.existsSync(PAYSIGN.replace('bin/paysign.js', 'dist/cli.js'))) throw new Error('libs/sdk/dist is missing: nx runs sdk:build before sdk-e2e:test');
    api = await startTestApp({ MERCHANTS_FILE: payoutMerchantsFile(undefined, { approvalA: { required: true, thresholdNaira: 0 } }), SANDBOX_PAYOUT_DELAY_MS: '0' }, { startJobs: false });
    creator = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    const reference = `cli-fund-${Date.now()}`;
    await creator.payins.create({ amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await creator.payins.simulate(reference, { outcome: 'successful' });
  });
  afterAll(() => api.close());
  const approverClient = () => new PaymentClient({ baseUrl: api.baseUrl, ...APPROVER_A, retryDelayMs: 10 });

  it('dry-runs a CSV with a bad bank code and a name mismatch: both rows are reported, and nothing is created', async () => {
    const batch = `cli-dry-${Date.now()}`;
    const file = csvFile([
      'reference,bankCode,accountNumber,amount,narration,expectedAccountName',
      `${batch}-1,058,0123456785,5000,Salary,Adaeze Nwosu`,
      `${batch}-2,999,0123456785,4000,Salary,`,
      `${batch}-3,058,0123456785,3000.50,"Salary, November",John Doe`,
    ]);
    const run = await paysign(['batches', 'create', '--file', file, '--reference', batch, '--title', 'November payroll', '--dry-run'], envOf(MERCHANT_A));
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^row 2 ${batch}-1: 058 0123456785 NGN 5000 -> ADAEZE NWOSU \\(name exact\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^row 3 ${batch}-2: 999 0123456785 NGN 4000 -> problem: [A-Z_]+: .*bankCode`));
    expect(lines[2]).toBe(`row 4 ${batch}-3: 058 0123456785 NGN 3000.50 -> problem: name mismatch: expected "John Doe", the bank says "ADAEZE NWOSU"`);
    expect(run.stderr).toContain('2 of 3 rows have a problem (above); nothing was created.');
    expect(await creator.payoutBatches.get(batch).catch((e: { code?: string }) => e.code)).toBe('PAYOUT_BATCH_NOT_FOUND');
    expect(await creator.payouts.list({ status: 'PENDING_APPROVAL' }).toArray()).toEqual([]);
  });

  it('creates a batch from a clean file, shows it to the person submitting, and submits it with the approver\'s count and total', async () => {
    const batch = `cli-batch-${Date.now()}`;
    const file = csvFile(['reference,bankCode,accountNumber,amount,narration', `${batch}-1,058,0123456785,5000,Salary`, `${batch}-2,058,0123456785,2500.25,Salary`]);
    const dry = await paysign(['batches', 'create', '--file', file, '--reference', batch, '--title', 'Payroll', '--dry-run'], envOf(MERCHANT_A));
    expect([dry.code, dry.stdout.trim().split('\n').pop()]).toEqual([0, `Dry run: batch ${batch} ("Payroll") would hold 2 payouts totalling NGN 7500.25. Nothing was created.`]);
    const created = await paysign(['batches', 'create', '--file', file, '--reference', batch, '--title', 'Payroll'], envOf(MERCHANT_A));
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Batch ${batch} ("Payroll"): OPEN, 2 payouts totalling NGN 7500.25, fees NGN 50.00 (2 PENDING_APPROVAL); needs an approver to submit.`);
    expect(created.stdout).toContain('The file holds 2 payouts totalling NGN 7500.25.');

    const shown = await paysign(['batches', 'show', batch], envOf(APPROVER_A));
    expect(shown.code).toBe(0);
    // The payouts in the order they were created, which the CLI's concurrent adds leave open: compared as a set.
    expect(shown.stdout.trim().split('\n').slice(1).sort()).toEqual([
      `  ${batch}-1  058 0123456785  ADAEZE NWOSU  NGN 5000.00  PENDING_APPROVAL`,
      `  ${batch}-2  058 0123456785  ADAEZE NWOSU  NGN 2500.25  PENDING_APPROVAL`,
    ]);
    const withoutNumbers = await paysign(['batches', 'submit', batch], envOf(APPROVER_A));
    expect(withoutNumbers.code).toBe(2);
    expect(withoutNumbers.stdout).toContain(`  ${batch}-2  058 0123456785`);
    expect(withoutNumbers.stderr).toContain('give --count and --total');
    const wrong = await paysign(['batches', 'submit', batch, '--count', '3', '--total', '7500.25'], envOf(APPROVER_A));
    expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringContaining('PAYOUT_BATCH_MISMATCH: Payout batch')]);
    const byCreator = await paysign(['batches', 'submit', batch, '--count', '2', '--total', '7500.25'], envOf(MERCHANT_A));
    expect([byCreator.code, byCreator.stderr]).toEqual([1, expect.stringContaining('APPROVER_REQUIRED')]);
    const submitted = await paysign(['batches', 'submit', batch, '--count', '2', '--total', '7500.25'], envOf(APPROVER_A));
    expect([submitted.code, submitted.stdout.trim()]).toEqual([0, `Batch ${batch} ("Payroll"): SUBMITTED, 2 payouts totalling NGN 7500.25, fees NGN 50.00 (2 QUEUED).`]);
  });

  it('resumes a batch that stopped part-way: run again with the refused row corrected, it keeps the rows already in and adds the rest', async () => {
    const batch = `cli-resume-${Date.now()}`;
    const rows = (lastAmount: string) => ['reference,bankCode,accountNumber,amount,narration,expectedAccountName', `${batch}-1,058,0123456785,3000,Salary,Adaeze Nwosu`, `${batch}-2,058,0123456785,${lastAmount},Salary,Adaeze Nwosu`];
    // ₦50 passes the file's own checks but is below the service's PAYOUT_MIN_AMOUNT: the service refuses that row.
    const stopped = await paysign(['batches', 'create', '--file', csvFile(rows('50')), '--reference', batch, '--title', 'Resume'], envOf(MERCHANT_A));
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`${batch}-2: PAYOUT_LIMIT_EXCEEDED`);
    expect(stopped.stderr).toContain('1 payout not added');
    expect((await creator.payoutBatches.get(batch)).itemCount).toBe(1);
    const resumed = await paysign(['batches', 'create', '--file', csvFile(rows('150')), '--reference', batch, '--title', 'Resume'], envOf(MERCHANT_A));
    expect([resumed.code, resumed.stderr]).toEqual([0, '']);
    expect(resumed.stdout).toContain(`row 2 ${batch}-1: 058 0123456785 NGN 3000 -> ADAEZE NWOSU (already in the batch, PENDING_APPROVAL)`);
    expect(resumed.stdout).toContain(`Batch ${batch} ("Resume"): OPEN, 2 payouts totalling NGN 3150.00, fees NGN 50.00 (2 PENDING_APPROVAL); needs an approver to submit.`);
    const changed = await paysign(['batches', 'create', '--file', csvFile(rows('150').map((line) => line.replace(',3000,', ',3100,'))), '--reference', batch, '--title', 'Resume', '--dry-run'], envOf(MERCHANT_A));
    expect([changed.code, changed.stdout]).toEqual([1, expect.stringContaining(`problem: the batch already holds payout ${batch}-1 for another account, amount or narration`)]);
    expect(await approverClient().payoutBatches.cancel(batch)).toMatchObject({ status: 'CANCELLED' });
    const cancelled = await creator.payouts.get(`${batch}-1`);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationReason: 'batch_cancelled', approval: { status: 'withdrawn' } });
  });

  it('approves and rejects single payouts from the terminal, refusing the creator\'s own approval', async () => {
    const { enquiryId } = await creator.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    const reference = `cli-approve-${Date.now()}`;
    await creator.payouts.create({ reference, amount: 1200, currency: 'NGN', enquiryId, narration: 'Vendor' });
    const own = await paysign(['payouts', 'approve', reference], envOf(MERCHANT_A));
    expect([own.code, own.stderr]).toEqual([1, expect.stringContaining('APPROVER_REQUIRED: API key pk_live_a cannot approve payout')]);
    const approved = await paysign(['payouts', 'approve', reference], envOf(APPROVER_A));
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^Payout ${reference}: QUEUED, approval approved by ${APPROVER_A.apiKey} at \\S+; NGN 1200.00 to ADAEZE NWOSU \\(058 0123456785\\)\\.`));
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
    expect((await creator.payouts.get(reference)).status).toBe('SUCCESSFUL');
    const second = `${reference}-2`;
    await creator.payouts.create({ reference: second, amount: 800, currency: 'NGN', enquiryId, narration: 'Vendor' });
    const rejected = await paysign(['payouts', 'reject', second, '--reason', 'Wrong vendor'], envOf(APPROVER_A));
    expect([rejected.code, rejected.stdout]).toEqual([0, expect.stringContaining(`Payout ${second}: CANCELLED, approval rejected by ${APPROVER_A.apiKey}`)]);
    expect((await creator.payouts.get(second)).approval).toMatchObject({ reason: 'Wrong vendor' });
    const usage = await paysign(['payouts', 'approve'], envOf(APPROVER_A));
    expect([usage.code, usage.stderr.trim()]).toEqual([2, 'paysign payouts: expected <reference>, got none.']);
  });
});
