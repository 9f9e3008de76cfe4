// client.settlements against the real service: the account, the schedule, settling now, and what a settlement covered.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { JobRunner, MERCHANT_A, PayoutDispatcher, startTestApp, type TestApp } from '@paysign/api/testing';
import { ConflictError, PaymentClient, PermissionError } from '@paysign/sdk';

/** Merchant A with one key that may manage settlements, and one (an approver) that may not. */
function merchantsFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-settlements-')), 'merchants.json');
  fs.writeFileSync(
    file,
    JSON.stringify([
      {
        merchantId: MERCHANT_A.merchantId,
        tenantId: MERCHANT_A.tenantId,
        name: 'Merchant A',
        credentials: [
          { apiKey: MERCHANT_A.apiKey, secretKey: MERCHANT_A.secretKey, roles: ['settlements:manage'] },
          { apiKey: 'pk_live_a_reader', secretKey: 'sk_test_a_reader_0123456789abcdef01', roles: ['payouts:approve'] },
        ],
      },
    ]),
  );
  return file;
}

describe('PaymentClient settlements against the real service', () => {
  let api: TestApp;
  let client: PaymentClient;
  beforeAll(async () => {
    api = await startTestApp({ MERCHANTS_FILE: merchantsFile(), SANDBOX_PAYOUT_DELAY_MS: '0' }, { startJobs: false });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, retryDelayMs: 10 });
  });
  afterAll(() => api.close());

  it('sets the account and schedule, settles now, and lists exactly the entries the settlement covered', async () => {
    const { enquiryId } = await client.accounts.enquire({ bankCode: '058', accountNumber: '0123456785' });
    expect(await client.settlements.setAccount(enquiryId)).toMatchObject({ current: { account: { accountName: 'ADAEZE NWOSU', enquiryId } }, pending: null });
    expect(await client.settlements.account()).toMatchObject({ current: { account: { enquiryId } } });
    expect(await client.settlements.setSchedule({ interval: 'manual', minimumAmount: 0 })).toMatchObject({ interval: 'manual', paused: false, nextRunAt: null });
    expect(await client.settlements.cancelAccountChange().catch((e: unknown) => e)).toBeInstanceOf(ConflictError);

    for (const amount of [1000, 2500.5]) {
      const reference = `sdk-stl-${Date.now()}-${amount}`;
      await client.payins.create({ amount, currency: 'NGN', customerEmail: 'ada@example.com', reference });
      await client.payins.simulate(reference, { outcome: 'successful' });
    }
    const { available } = await client.balance.get();
    const request = { reference: `sdk-early-${Date.now()}`, currency: 'NGN' as const };
    const settlement = await client.settlements.create(request);
    expect(settlement).toMatchObject({ status: 'PENDING', amount: available, trigger: 'manual', idempotentReplayed: false });
    expect(await client.settlements.create(request)).toMatchObject({ id: settlement.id, idempotentReplayed: true });
    await api.app.get(JobRunner).runNow('payout-dispatch');
    await api.app.get(PayoutDispatcher).idle();
    expect(await client.settlements.get(settlement.id)).toMatchObject({ status: 'PAID' });
    expect((await client.settlements.list({ status: 'PAID' }).toArray()).map((s) => s.id)).toEqual([settlement.id]);
    const entries = await client.settlements.entries(settlement.id, { limit: 1 }).toArray();
    expect(entries).toHaveLength(2);
    expect(entries.reduce((sum, entry) => sum + Math.round(entry.amount * 100), 0)).toBe(Math.round(settlement.amount * 100));

    const reader = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A, apiKey: 'pk_live_a_reader', secretKey: 'sk_test_a_reader_0123456789abcdef01', retryDelayMs: 10 });
    expect(await reader.settlements.get(settlement.id)).toMatchObject({ id: settlement.id });
    const refused = await reader.settlements.create({ reference: 'sdk-reader', currency: 'NGN' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PermissionError);
    expect(refused).toMatchObject({ code: 'ROLE_REQUIRED' });
  });
});
