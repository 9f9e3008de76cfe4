// Rotating CHECKOUT_TOKEN_SECRET, as docs/runbooks.md says it goes: two
// instances on one database, one on the old secret and one on the new, as
// during a rollout. Links already handed out open on both; a payin read again
// under the new secret gets a link that answers 404; a form shown under one
// secret and sent to the other is refused once, charging nothing, and the
// page that refuses it takes the payment.
import { randomUUID } from 'node:crypto';
import { signedCall } from './support/api-client';
import { MERCHANT_A } from './support/credentials';
import { CARD, browser } from './support/checkout-browser';
import { DATABASE_URL, createPrivateDatabase, describeWithStore } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';

const PAYINS = '/payment/api/payins';
const OLD_SECRET = 'checkout-secret-before-the-rotation-0123456789';
const NEW_SECRET = 'checkout-secret-after-the-rotation-9876543210ab';
const REFUSED_FORM = 'This form had expired or was sent from another page, so nothing was charged. Check the details and submit again.';

describeWithStore('PostgreSQL', DATABASE_URL, 'rotating CHECKOUT_TOKEN_SECRET', () => {
  let database: Awaited<ReturnType<typeof createPrivateDatabase>>;
  let before: TestApp;
  let after: TestApp;
  beforeAll(async () => {
    database = await createPrivateDatabase('paysign_checkout_rotation');
    before = await startTestApp({ DATABASE_URL: database.url, CHECKOUT_TOKEN_SECRET: OLD_SECRET });
    after = await startTestApp({ DATABASE_URL: database.url, CHECKOUT_TOKEN_SECRET: NEW_SECRET });
  });
  afterAll(async () => {
    await after?.close();
    await before?.close();
    await database?.drop();
  });

  /** A checkout link's path on an instance: each instance builds links on its own origin. */
  const on = (api: TestApp, link: string) => `${api.baseUrl}${new URL(link).pathname}`;
  const pathOf = (link: unknown) => new URL(String(link)).pathname;

  async function createPayin(api: TestApp): Promise<{ reference: string; body: string; checkoutUrl: string }> {
    const reference = `rot-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    const created = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
    expect(created.status).toBe(201);
    return { reference, body, checkoutUrl: created.json.checkoutUrl as string };
  }
  const read = async (api: TestApp, reference: string) => (await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}`, credential: MERCHANT_A })).json;

  it('keeps the links already handed out: both secrets open them', async () => {
    const { checkoutUrl } = await createPayin(before);
    expect((await browser().open(on(before, checkoutUrl))).status).toBe(200);
    expect((await browser().open(on(after, checkoutUrl))).status).toBe(200);
  });

  it('gives a payin read again under the new secret a link that answers 404', async () => {
    const { reference, body, checkoutUrl } = await createPayin(before);
    const reread = await read(after, reference);
    expect(reread.status).toBe('PENDING');
    expect(pathOf(reread.checkoutUrl)).not.toBe(pathOf(checkoutUrl));
    expect((await browser().open(on(after, reread.checkoutUrl as string))).status).toBe(404);
    // A create sent again with the same reference answers the same new link.
    const replayed = await signedCall(after.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
    expect(replayed.status).toBe(200);
    expect(pathOf(replayed.json.checkoutUrl)).toBe(pathOf(reread.checkoutUrl));
    // Under the old secret, the link is the one handed out.
    expect(pathOf((await read(before, reference)).checkoutUrl)).toBe(pathOf(checkoutUrl));
  });

  it('refuses once a form shown under the old secret and sent under the new, charging nothing; the page that refuses it takes the payment', async () => {
    const { reference, checkoutUrl } = await createPayin(before);
    const customer = browser();
    const page = await customer.open(on(before, checkoutUrl));
    const refused = await customer.submit(on(after, checkoutUrl), { csrf: page.csrf as string, action: 'pay_card', ...CARD });
    expect(refused.status).toBe(403);
    const refusal = await refused.text();
    expect(refusal).toContain(REFUSED_FORM);
    expect(await read(after, reference)).toMatchObject({ status: 'PENDING', attempts: [] });

    // The refusal is a page with its own form and cookie, under the secret of the instance that answered.
    const cookie = refused.headers.get('set-cookie')?.split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(refusal)?.[1] as string;
    const paid = await fetch(on(after, checkoutUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ csrf, action: 'pay_card', ...CARD }).toString(),
    });
    expect(paid.status).toBe(303);
    expect(await read(before, reference)).toMatchObject({ status: 'SUCCESSFUL' });
  });
});
