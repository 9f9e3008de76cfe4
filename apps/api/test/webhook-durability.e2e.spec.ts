// At least once, whatever kill -9 interrupts: the built service, on its own
// PostgreSQL database, is killed between a payin's transition and the
// delivery of its event, and again in the middle of the delivery; a new
// process on the same database delivers the event, with the same webhook-id.
import { randomUUID } from 'node:crypto';
import { signedCall } from './support/api-client';
import { startBuiltService, type BuiltService } from './support/built-service';
import { MERCHANT_A } from './support/credentials';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { WebhookReceiver } from './support/webhook-receiver';

const QUICK = { WEBHOOK_RETRY_SCHEDULE: '0,1,1,1', WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_TIMEOUT_MS: '1000' };

async function paidPayin(service: BuiltService, notifyUrl: string): Promise<string> {
  const reference = `durable-${randomUUID().slice(0, 8)}`;
  const created = await signedCall(service.baseUrl, { path: '/payment/api/payins', body: JSON.stringify({ amount: 99.99, currency: 'NGN', customerEmail: 'ada@example.com', reference, notifyUrl }), credential: MERCHANT_A });
  expect(created.status).toBe(201);
  const paid = await signedCall(service.baseUrl, { path: `/payment/api/payins/${reference}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A });
  expect(paid.status).toBe(200);
  return reference;
}

async function killHard(service: BuiltService): Promise<void> {
  service.child.kill('SIGKILL');
  await service.exited;
}

describeWithStore('PostgreSQL', DATABASE_URL, 'webhooks after kill -9', () => {
  let database: { url: string; drop: () => Promise<void> };
  let receiver: WebhookReceiver;
  const services: BuiltService[] = [];
  beforeAll(async () => {
    database = await createPrivateDatabase();
    receiver = await WebhookReceiver.start();
  });
  // Every process of a test is gone before the next test: one left running would share the database and take events over.
  afterEach(async () => {
    for (const service of services.splice(0)) await service.dispose();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });
  const start = async (env: Record<string, string>) => {
    const service = await startBuiltService({ ...QUICK, ...env }, { databaseUrl: database.url });
    services.push(service);
    return service;
  };

  it('delivers an event after kill -9 between the transition and the delivery', async () => {
    // This process never polls in time: only the transition, and its outbox row, happen before it dies.
    const first = await start({ WEBHOOK_POLL_INTERVAL_MS: '60000' });
    const reference = await paidPayin(first, receiver.url);
    await killHard(first);
    expect(receiver.deliveriesOf(reference)).toHaveLength(0);

    await start({});
    const [delivery] = await receiver.waitFor(reference, 1, 15_000);
    expect(JSON.parse(delivery?.body as string)).toMatchObject({ type: 'payin.successful', data: { reference, status: 'SUCCESSFUL' } });
  }, 60_000);

  it('delivers an event again, with the same webhook-id, after kill -9 in the middle of its delivery', async () => {
    receiver.answer((_delivery, nth) => (nth === 1 ? 'hang' : { status: 200, body: 'ok' }));
    const first = await start({});
    const reference = await paidPayin(first, receiver.url);
    await receiver.waitFor(reference, 1, 10_000);
    await killHard(first);

    const second = await start({});
    const [hung, delivered] = await receiver.waitFor(reference, 2, 20_000);
    expect(delivered?.headers['webhook-id']).toBe(hung?.headers['webhook-id']);
    expect(delivered?.body).toBe(hung?.body);
    // The second process waited for the first one's lease (timeout + 5 s) before taking the event over.
    expect((delivered?.at as number) - (hung?.at as number)).toBeGreaterThanOrEqual(5500);
    // The receiver has its answer before the service records the attempt: read until the record is there.
    type Event = { status: string; attempts: Array<{ attempt: number; statusCode: number | null }> };
    let event: Event | undefined;
    for (const deadline = Date.now() + 10_000; event?.status !== 'delivered' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      [event] = (await signedCall(second.baseUrl, { path: `/payment/api/payins/${reference}/events`, credential: MERCHANT_A })).json.data as Event[];
    }
    // The killed attempt left no record; the one that succeeded is attempt 2.
    expect(event?.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[2, 200]]);
  }, 60_000);
});
