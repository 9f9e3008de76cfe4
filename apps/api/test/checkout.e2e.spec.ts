// The hosted checkout over real HTTP, as a browser would use it: pages,
// headers, the CSRF cookie, post/redirect/get, resubmission, unknown and
// expired links, races, and which merchant a link belongs to.
import { randomUUID } from 'node:crypto';
import { ContractValidator } from '@paysign/contracts/testing';
import { send, signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from './support/credentials';
import { rawExchange } from './support/raw-http';
import { startTestApp, type TestApp } from './support/test-app';

const PAYINS = '/payment/api/payins';

interface Browser {
  /** The page's HTML, its status and headers, and the CSRF value of its form. */
  open(url: string): Promise<{ status: number; html: string; headers: Headers; csrf: string | undefined }>;
  submit(url: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** The cookie the browser holds, as it sends it. */
  cookie(): string | undefined;
}

/** A cookie jar of one: what a browser keeps between the page and its form. */
function browser(): Browser {
  let cookie: string | undefined;
  return {
    async open(url) {
      const response = await fetch(url, { redirect: 'manual' });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) cookie = setCookie.split(';')[0];
      const html = await response.text();
      return { status: response.status, html, headers: response.headers, csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] };
    },
    cookie: () => cookie,
    submit(url, fields, headers = {}) {
      return fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
}

const CARD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/34', cardCvc: '123' };

describe('hosted checkout', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  async function createPayin(extra: Record<string, unknown> = {}, credential: TestCredential = MERCHANT_A): Promise<{ reference: string; checkoutUrl: string }> {
    const reference = (extra.reference as string | undefined) ?? `co-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', narration: 'Order <b>1042</b> & "rice"', reference, ...extra });
    const created = await signedCall(api.baseUrl, { path: PAYINS, body, credential });
    expect(created.status).toBe(201);
    return { reference, checkoutUrl: created.json.checkoutUrl as string };
  }
  const statusOf = async (reference: string, credential: TestCredential = MERCHANT_A) => (await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}`, credential })).json;

  it('serves the page with a strict CSP, no script, no external asset, and escaped text', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const page = await browser().open(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; form-action 'self' https:\/\/shop\.example\.com; frame-ancestors 'none'; base-uri 'none'$/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('set-cookie')).toMatch(/^paysign_checkout_csrf=[A-Za-z0-9_-]{43}; Path=\/payment\/checkout\/[A-Za-z0-9_-]{43}; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    expect(page.html).not.toMatch(/<script|<link|<img|<iframe|src=|https?:\/\/(?!shop\.example\.com)/i);
    expect(page.html).toContain('Merchant A');
    expect(page.html).toContain('₦1,500.50');
    expect(page.html).toContain(reference);
    expect(page.html).toContain('Order &#60;b&#62;1042&#60;/b&#62; &#38; &#34;rice&#34;');
    for (const label of ['<label for="cardNumber">', '<label for="cardExpiry">', '<label for="cardCvc">']) expect(page.html).toContain(label);
  });

  it('pays, then sends the customer on with a 303 to the redirectUrl, keeping its query and fragment', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done?cart=a%20b&x=1#top' });
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const paid = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`https://shop.example.com/done?cart=a%20b&x=1&reference=${reference}&status=SUCCESSFUL#top`);
    expect(await statusOf(reference)).toMatchObject({ status: 'SUCCESSFUL', checkoutUrl: null });
  });

  it('changes nothing on a resubmission after the payin is final, and says where it went', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD });
    const before = await statusOf(reference);
    const again = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'cancel' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`https://shop.example.com/done?reference=${reference}&status=SUCCESSFUL`);
    expect(await statusOf(reference)).toEqual(before);
  });

  it('moves the payin once when a double click sends two forms at once', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const answers = await Promise.all([
      customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD }),
      customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'cancel' }),
      customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'confirm_transfer' }),
    ]);
    const final = (await statusOf(reference)).status as string;
    expect(['SUCCESSFUL', 'CANCELLED']).toContain(final);
    for (const answer of answers) expect(answer.headers.get('location')).toBe(`https://shop.example.com/done?reference=${reference}&status=${final}`);
    const moved = api.logs.filter((line) => line.msg === 'payin moved at checkout' && line.reference === reference);
    expect(moved).toHaveLength(1);
  });

  it.each([
    ['a declined card', { action: 'pay_card', ...CARD, cardNumber: '4000000000000002' }, 'FAILED', 'card_declined'],
    ['an expired card', { action: 'pay_card', ...CARD, cardNumber: '4000000000000069' }, 'FAILED', 'expired_card'],
    ['a bank transfer', { action: 'confirm_transfer' }, 'SUCCESSFUL', null],
    ['a USSD payment', { action: 'confirm_ussd' }, 'SUCCESSFUL', null],
    ['cancel', { action: 'cancel' }, 'CANCELLED', 'customer_cancelled'],
  ])('records %s', async (_name, fields, status, failureReason) => {
    const { checkoutUrl, reference } = await createPayin();
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const answer = await customer.submit(checkoutUrl, { csrf: page.csrf as string, ...fields });
    // Without a redirectUrl: back to the page, which now shows the outcome.
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(new URL(checkoutUrl).pathname);
    expect(await statusOf(reference)).toMatchObject({ status, failureReason });
    const outcome = await customer.open(checkoutUrl);
    expect(outcome.status).toBe(200);
    expect(outcome.html).toContain('role="status"');
    expect(outcome.html).not.toContain('name="csrf"');
  });

  it('shows card mistakes next to their fields with 400, keeps the number but never the security code, and charges nothing', async () => {
    const { checkoutUrl, reference } = await createPayin();
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const answer = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', cardNumber: '4242 4242 4242 4241', cardExpiry: '01/20', cardCvc: '98765' });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain('its check digit is wrong');
    expect(html).toContain('This expiry date has passed');
    expect(html).toContain('The security code is the 3 or 4 digits on the card');
    expect(html).toContain('value="4242 4242 4242 4241"');
    expect(html).not.toContain('98765');
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(3);
    expect((await statusOf(reference)).status).toBe('PENDING');
  });

  it('refuses a valid card number that is not a sandbox test card', async () => {
    const { checkoutUrl, reference } = await createPayin();
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const answer = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD, cardNumber: '5555555555554444' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('not a sandbox test card');
    expect((await statusOf(reference)).status).toBe('PENDING');
  });

  describe('forgery', () => {
    it.each([
      ['without the cookie', (csrf: string) => ({ fields: { csrf, action: 'pay_card', ...CARD }, headers: { cookie: '' } })],
      ['with another CSRF value', () => ({ fields: { csrf: 'A'.repeat(43), action: 'pay_card', ...CARD }, headers: {} })],
      ['without a CSRF field', () => ({ fields: { action: 'pay_card', ...CARD }, headers: {} })],
      ['from another site', (csrf: string) => ({ fields: { csrf, action: 'pay_card', ...CARD }, headers: { 'sec-fetch-site': 'cross-site' } })],
      ['from a sibling subdomain', (csrf: string) => ({ fields: { csrf, action: 'pay_card', ...CARD }, headers: { 'sec-fetch-site': 'same-site' } })],
      // Cookie tossing: a site that can set cookies for the parent domain plants its own value, and sends it as the field too.
      ['with a planted cookie and the same value as its field', () => ({ fields: { csrf: 'B'.repeat(43), action: 'pay_card', ...CARD }, headers: { cookie: `paysign_checkout_csrf=${'B'.repeat(43)}` } })],
    ])('refuses a form %s with 403, showing the page again, and charges nothing', async (_name, build) => {
      const { checkoutUrl, reference } = await createPayin();
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      const { fields, headers } = build(page.csrf as string);
      const answer = await customer.submit(checkoutUrl, fields, headers);
      expect(answer.status).toBe(403);
      const html = await answer.text();
      expect(html).toContain('nothing was charged');
      expect(html).toContain('name="csrf"');
      expect((await statusOf(reference)).status).toBe('PENDING');
    });

    it('refuses a form that is not the page’s own: unknown or repeated fields, or an unknown action', async () => {
      const { checkoutUrl, reference } = await createPayin();
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      for (const fields of [
        { csrf: page.csrf as string, action: 'refund' } as Record<string, string>,
        { csrf: page.csrf as string, action: 'cancel', amount: '1' },
      ]) {
        expect((await customer.submit(checkoutUrl, fields)).status).toBe(400);
      }
      const repeated = await fetch(checkoutUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: customer.cookie() as string },
        body: `csrf=${page.csrf}&action=cancel&action=pay_card`,
      });
      expect(repeated.status).toBe(400);
      expect((await statusOf(reference)).status).toBe('PENDING');
    });

    it('refuses a channel the payin does not offer', async () => {
      const { checkoutUrl, reference } = await createPayin({ gateway: 'card' });
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      expect(page.html).not.toContain('Pay by bank transfer');
      expect((await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'confirm_transfer' })).status).toBe(400);
      expect((await statusOf(reference)).status).toBe('PENDING');
    });
  });

  describe('links that lead nowhere', () => {
    it('answers an unknown or malformed token with a 404 page, not JSON', async () => {
      for (const token of ['A'.repeat(43), 'short', '..%2F..%2Fetc']) {
        const page = await browser().open(`${api.baseUrl}/payment/checkout/${token}`);
        expect(page.status).toBe(404);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.html).toContain('Payment link not found');
      }
    });

    it('answers an expired link with a 410 page, and a form on it too', async () => {
      const { checkoutUrl, reference } = await createPayin();
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: '{"outcome":"abandoned"}', credential: MERCHANT_A });
      const expired = await customer.open(checkoutUrl);
      expect(expired.status).toBe(410);
      expect(expired.html).toContain('This payment link has expired');
      expect((await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD })).status).toBe(410);
      expect((await statusOf(reference)).status).toBe('ABANDONED');
    });

    it('answers a JSON body on the checkout with a 415 page, and a form on a signed route with the JSON 415', async () => {
      const { checkoutUrl } = await createPayin();
      const json = await fetch(checkoutUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"cancel"}' });
      expect(json.status).toBe(415);
      expect(json.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const form = await signedCall(api.baseUrl, { path: PAYINS, body: 'amount=1', signedBody: '{}', contentType: 'application/x-www-form-urlencoded', credential: MERCHANT_A });
      expect(form.status).toBe(415);
      expect(form.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
  });

  it('answers forms it does not act on with the pages the contract documents: the outcome of a final payin (200), too large (413), not a form (415)', async () => {
    const { checkoutUrl, reference } = await createPayin();
    await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A });
    const path = new URL(checkoutUrl).pathname;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // send() checks each answer against the contract.
    const withoutItsPage = await send(api.baseUrl, { method: 'POST', path, headers: form, body: 'action=cancel' });
    const tooLarge = await send(api.baseUrl, { method: 'POST', path, headers: form, body: `action=cancel&cardNumber=${'4'.repeat(5000)}` });
    const notAForm = await send(api.baseUrl, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{"action":"cancel"}' });
    expect([withoutItsPage.status, tooLarge.status, notAForm.status]).toEqual([200, 413, 415]);
    expect((await statusOf(reference)).status).toBe('SUCCESSFUL');
  });

  it('answers a link requested with a fragment in its path with a 400 page, as the contract documents, not JSON', async () => {
    const path = new URL((await createPayin()).checkoutUrl).pathname;
    const exchange = await rawExchange(api.baseUrl, [`GET ${path}#pay HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`], 5000);
    const [head = '', body = ''] = exchange.response.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 [^]*\r\ncontent-type: text\/html; charset=utf-8\r\n/i);
    expect(new ContractValidator().validateResponse({ method: 'GET', path, status: 400, body })).toEqual([]);
  });

  it("opens only its own merchant's payin, even when two merchants use the same reference", async () => {
    const reference = `shared-${randomUUID().slice(0, 8)}`;
    const ofA = await createPayin({ reference }, MERCHANT_A);
    const ofB = await createPayin({ reference }, MERCHANT_B);
    expect(ofA.checkoutUrl).not.toBe(ofB.checkoutUrl);
    const customer = browser();
    const page = await customer.open(ofB.checkoutUrl);
    expect(page.html).toContain('Merchant B');
    await customer.submit(ofB.checkoutUrl, { csrf: page.csrf as string, action: 'confirm_transfer' });
    expect((await statusOf(reference, MERCHANT_B)).status).toBe('SUCCESSFUL');
    expect((await statusOf(reference, MERCHANT_A)).status).toBe('PENDING');
  });

  it('never writes the token to the logs', async () => {
    const { checkoutUrl } = await createPayin();
    await browser().open(checkoutUrl);
    const token = checkoutUrl.split('/').pop() as string;
    expect(JSON.stringify(api.logs)).not.toContain(token);
    expect(api.logs.some((line) => line.path === '/payment/checkout/{token}')).toBe(true);
  });
});
