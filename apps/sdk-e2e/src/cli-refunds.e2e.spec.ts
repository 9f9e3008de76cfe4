// The built paysign CLI refunding payins and reading refunds back, run as a person runs it, against the real service in-process.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MERCHANT_A, startTestApp, type TestApp, type TestCredential } from '@paysign/api/testing';
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

describe('paysign refunds against the real service', () => {
  let api: TestApp;
  let client: PaymentClient;
  const envOf = (credential: TestCredential) => ({
    PAYSIGN_BASE_URL: api.baseUrl,
    PAYSIGN_API_KEY: credential.apiKey,
    PAYSIGN_SECRET_KEY: credential.secretKey,
    PAYSIGN_MERCHANT_ID: credential.merchantId,
    PAYSIGN_TENANT_ID: credential.tenantId,
  });
  // Jobs run only when a test runs them, so that a refund stays PENDING until it is simulated.
  beforeAll(async () => {
    if (!fs.existsSync(PAYSIGN.replace('bin/paysign.js', 'dist/cli.js'))) throw new Error('libs/sdk/dist is missing: nx runs sdk:build before sdk-e2e:test');
    api = await startTestApp({}, { startJobs: false });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
    const funding = `cli-fund-${Date.now()}`;
    await client.payins.create({ amount: 100_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: funding });
    await client.payins.simulate(funding, { outcome: 'successful' });
  });
  afterAll(() => api.close());

  /** A SUCCESSFUL payin of this amount, to refund. */
  const paidPayin = async (amount: number, name: string): Promise<string> => {
    const reference = `cli-refund-${name}-${Date.now()}`;
    await client.payins.create({ amount, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    await client.payins.simulate(reference, { outcome: 'successful' });
    return reference;
  };

  it('creates a refund of part of a payin, shows the same refund when run again, and refuses more than is left', async () => {
    const payin = await paidPayin(1500.5, 'create');
    const reference = `${payin}-r1`;
    const args = ['refunds', 'create', '--payin', payin, '--reference', reference, '--amount', '500', '--reason', 'requested_by_customer'];
    const created = await paysign(args, envOf(MERCHANT_A));
    expect([created.code, created.stderr]).toEqual([0, '']);
    expect(created.stdout.trim()).toMatch(new RegExp(`^Refund ${reference} of payin ${payin}: PENDING, NGN 500\\.00\\. Held from (pending|available); not yet sent to the provider, so it can still be cancelled\\.$`));
    const again = await paysign(args, envOf(MERCHANT_A));
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('Already created with this reference: shown as it is now, nothing new was created.')]);
    expect(await client.refunds.list({ payinReference: payin }).toArray()).toHaveLength(1);

    const tooMuch = await paysign(['refunds', 'create', '--payin', payin, '--reference', `${payin}-r2`, '--amount', '1200'], envOf(MERCHANT_A));
    expect([tooMuch.code, tooMuch.stdout]).toEqual([1, '']);
    expect(tooMuch.stderr).toContain('paysign refunds create: REFUND_EXCEEDS_PAYIN: The refund of NGN 1200.00 is more than payin');
    const unpaid = await paysign(['refunds', 'create', '--payin', 'never-created', '--reference', `${payin}-r3`], envOf(MERCHANT_A));
    expect([unpaid.code, unpaid.stderr]).toEqual([1, expect.stringContaining('paysign refunds create: PAYIN_NOT_FOUND: ')]);
  });

  it('shows a refund with the account it was sent to and why it failed, and lists refunds by payin and status with the cursor that continues', async () => {
    const payin = await paidPayin(900, 'show');
    const failed = `${payin}-r1`;
    // .53: the sandbox holds it PROCESSING once it is sent to the account, until it is simulated.
    await client.refunds.create({ reference: failed, payinReference: payin, amount: 400.53 });
    await client.refunds.simulate(failed, { outcome: 'requires_action' });
    const { enquiryId } = await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    await client.refunds.setAccount(failed, { enquiryId });
    await client.refunds.simulate(failed, { outcome: 'failed', reason: 'account_not_found' });
    for (const i of [2, 3]) await client.refunds.create({ reference: `${payin}-r${i}`, payinReference: payin, amount: 10 });

    const shown = await paysign(['refunds', 'show', failed], envOf(MERCHANT_A));
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Refund ${failed} of payin ${payin}: FAILED (account_not_found), NGN 400.53.`);
    expect(lines).toContain('  account     058 0123456785 ADAEZE NWOSU');
    expect(lines.some((line) => /^ {2}completed {3}\S+$/.test(line))).toBe(true);

    const page = await paysign(['refunds', 'list', '--payin', payin, '--limit', '2'], envOf(MERCHANT_A));
    expect(page.code).toBe(0);
    expect(page.stdout.trim().split('\n').map((line) => line.trim().split(/\s+/).slice(0, 5).join(' '))).toEqual([`${payin}-r3 payin ${payin} NGN 10.00`, `${payin}-r2 payin ${payin} NGN 10.00`]);
    const cursor = /--cursor (\S+)$/.exec(page.stderr.trim())?.[1];
    expect(cursor).toEqual(expect.any(String));
    const rest = await paysign(['refunds', 'list', '--payin', payin, '--limit', '2', '--cursor', cursor as string], envOf(MERCHANT_A));
    expect([rest.code, rest.stderr]).toEqual([0, '']);
    expect(rest.stdout).toContain(`  ${failed}  payin ${payin}  NGN 400.53  FAILED  `);
    const failedOnly = await paysign(['refunds', 'list', '--payin', payin, '--status', 'FAILED'], envOf(MERCHANT_A));
    expect(failedOnly.stdout.trim().split('\n')).toHaveLength(1);

    const unknown = await paysign(['refunds', 'show', 'never-created'], envOf(MERCHANT_A));
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('paysign refunds show: REFUND_NOT_FOUND: ')]);
    const usage = await paysign(['refunds', 'show'], envOf(MERCHANT_A));
    expect([usage.code, usage.stderr.trim()]).toEqual([2, 'paysign refunds: expected <reference>, got none.']);
  });
});
