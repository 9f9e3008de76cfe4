// Payout events as a merchant's receiver gets them: signed, in the outbox with payins', and versioned.
import { createHmac } from 'node:crypto';
import { SANDBOX_PAYOUT_ACCOUNTS } from '../src/providers/sandbox/sandbox-payout-accounts';
import { JobRunner } from '../src/jobs/job-runner';
import { PayoutDispatcher } from '../src/payouts/payout-dispatcher';
import { signedCall } from './support/api-client';
import { MERCHANT_A, WEBHOOK_SECRETS_A } from './support/credentials';
import { payoutMerchantsFile } from './support/payout-merchants';
import { TestClock } from './support/test-clock';
import { startTestApp, type TestApp } from './support/test-app';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

const reversedLater = SANDBOX_PAYOUT_ACCOUNTS.find((account) => account.behaviour.kind === 'reversed-after') as (typeof SANDBOX_PAYOUT_ACCOUNTS)[number];

/** Standard Webhooks' check, as a receiver runs it: one of the signatures is ours over id, timestamp and the raw body. */
function signedByMerchantA(delivery: ReceivedWebhook): boolean {
  const content = `${String(delivery.headers['webhook-id'])}.${String(delivery.headers['webhook-timestamp'])}.${delivery.body}`;
  const signatures = String(delivery.headers['webhook-signature']).split(' ');
  return WEBHOOK_SECRETS_A.some((secret) => signatures.includes(`v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(content).digest('base64')}`));
}

describe('payout webhooks', () => {
  const clock = new TestClock();
  let receiver: WebhookReceiver;
  let api: TestApp;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Events of payouts created without a notifyUrl go to the merchant's webhookUrl: the receiver here.
    api = await startTestApp({ MERCHANTS_FILE: payoutMerchantsFile(receiver.url), SANDBOX_PAYOUT_DELAY_MS: '0' }, { overrides: { storeClock: clock.now }, startJobs: false });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });
  const call = (path: string, body?: unknown) => signedCall(api.baseUrl, { path, credential: MERCHANT_A, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const run = async (job: 'payout-dispatch' | 'payout-status-check' | 'webhook-delivery') => {
    await api.app.get(JobRunner).runNow(job);
    await api.app.get(PayoutDispatcher).idle();
  };

  it('sends payout.successful, then payout.reversed with a higher version; a late redelivery of the older one is known by its version', async () => {
    await call('/payment/api/payins', { amount: 10_000, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'hooks-funds' });
    await call('/payment/api/payins/hooks-funds/simulate', { outcome: 'successful' });
    const enquiryId = (await call('/payment/merchant-api/account/inquiry', { bankCode: reversedLater.bankCode, accountNumber: reversedLater.accountNumber })).json.enquiryId;
    expect((await call('/payment/api/payouts', { reference: 'hooks-1', amount: 1000, currency: 'NGN', enquiryId, narration: 'Hooks' })).status).toBe(201);
    await run('payout-dispatch');
    await run('webhook-delivery');
    await receiver.waitFor('hooks-1', 1);
    clock.advance(61_000);
    await run('payout-status-check');
    await run('webhook-delivery');
    const [successful, reversed] = await receiver.waitFor('hooks-1', 2);
    const events = [successful, reversed].map((delivery) => JSON.parse((delivery as ReceivedWebhook).body) as { type: string; version: number; data: { status: string; version: number } });
    expect(events.map((event) => [event.type, event.version, event.data.status, event.data.version])).toEqual([
      ['payout.successful', 3, 'SUCCESSFUL', 3],
      ['payout.reversed', 4, 'REVERSED', 4],
    ]);
    expect([successful, reversed].every((delivery) => signedByMerchantA(delivery as ReceivedWebhook))).toBe(true);

    // The older event arrives again, after the newer: a receiver that keeps the highest version it applied ignores it.
    const successfulId = String((successful as ReceivedWebhook).headers['webhook-id']);
    expect((await call(`/payment/api/events/${successfulId}/redeliver`, {})).status).toBe(202);
    await run('webhook-delivery');
    const deliveries = await receiver.waitFor('hooks-1', 3);
    const late = JSON.parse((deliveries[2] as ReceivedWebhook).body) as { type: string; version: number };
    expect({ id: (deliveries[2] as ReceivedWebhook).headers['webhook-id'], type: late.type, version: late.version }).toEqual({ id: successfulId, type: 'payout.successful', version: 3 });
    const applied = new Map<string, number>();
    const ignored = deliveries.filter((delivery) => {
      const event = JSON.parse(delivery.body) as { version: number; data: { reference: string } };
      if (event.version <= (applied.get(event.data.reference) ?? 0)) return true;
      applied.set(event.data.reference, event.version);
      return false;
    });
    expect(ignored).toEqual([deliveries[2]]);
  });
});
