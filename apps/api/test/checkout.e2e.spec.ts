// The hosted checkout over real HTTP, as a browser would use it: pages,
// headers, the CSRF cookie, post/redirect/get, resubmission, unknown and
// expired links, races, and which merchant a link belongs to.
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Payin } from '@paysign/contracts';
import { ContractValidator } from '@paysign/contracts/testing';
import { CheckoutLinks } from '../src/payins/checkout-links';
import { PayinRepository } from '../src/payins/payin-repository.interface';
import { send, signedCall } from './support/api-client';
import { MERCHANT_A, MERCHANT_B, TEST_LOGO, TEST_MERCHANTS_FILE, brandedMerchantsFile, type TestCredential } from './support/credentials';
import { CARD, DECLINED_CARD, browser } from './support/checkout-browser';
import { rawExchange } from './support/raw-http';
import { importMerchants, merchantAdmin } from './support/merchant-changes';
import { TestClock } from './support/test-clock';
import { startTestApp, type TestApp } from './support/test-app';

const PAYINS = '/payment/api/payins';


describe('hosted checkout', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  async function createPayin(extra: Record<string, unknown> = {}, credential: TestCredential = MERCHANT_A): Promise<{ reference: string; checkoutUrl: string; created: Record<string, unknown> }> {
    const reference = (extra.reference as string | undefined) ?? `co-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', narration: 'Order <b>1042</b> & "rice"', reference, ...extra });
    const created = await signedCall(api.baseUrl, { path: PAYINS, body, credential });
    expect(created.status).toBe(201);
    return { reference, checkoutUrl: created.json.checkoutUrl as string, created: created.json };
  }
  const statusOf = async (reference: string, credential: TestCredential = MERCHANT_A) => (await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}`, credential })).json;

  it('serves the page with a strict CSP, no script, no external asset, and escaped text', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const page = await browser().open(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; form-action 'self' https:\/\/shop\.example\.com; frame-ancestors 'none'; base-uri 'none'$/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('set-cookie')).toMatch(/^paysign_checkout_csrf=[A-Za-z0-9_-]{43}; Path=\/payment\/checkout\/[A-Za-z0-9_-]{43}; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    // One inline script, the progressive enhancement, allowed by its hash and by nothing broader; nothing loaded from anywhere.
    const scripts = [...page.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] as string);
    expect(scripts).toHaveLength(1);
    expect(page.headers.get('content-security-policy')).toContain(`script-src 'sha256-${createHash('sha256').update(scripts[0] as string).digest('base64')}';`);
    expect(page.html.replace(/<script>[\s\S]*?<\/script>/, '')).not.toMatch(/<script|<link|<img|<iframe|src=|https?:\/\/(?!shop\.example\.com)/i);
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
    const moved = api.logs.filter((line) => line.msg === 'payin changed at checkout' && line.reference === reference);
    expect(moved).toHaveLength(1);
  });

  it.each([
    ['a card the bank blocks', { action: 'pay_card', ...CARD, cardNumber: '4100000000000019' }, 'FAILED', 'fraud_suspected'],
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

  it('keeps the payin open after a decline: back to the card form with the reason, then paid by another card, with both attempts', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    const declined = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...DECLINED_CARD });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(`${new URL(checkoutUrl).pathname}?method=card`);
    expect(await statusOf(reference)).toMatchObject({ status: 'PENDING', failureReason: null, attempts: [{ channel: 'card', outcome: 'declined', declineReason: 'card_declined', attemptedAt: expect.any(String) }] });

    const again = await customer.open(new URL(declined.headers.get('location') as string, checkoutUrl).toString());
    expect(again.status).toBe(200);
    expect(again.html).toContain('<div class="card notice" role="alert"><p>Your bank declined this card. Try another card, pay by transfer or pay with USSD. You have 2 attempts left.</p></div>');
    const paid = await customer.submit(checkoutUrl, { csrf: again.csrf as string, action: 'pay_card', ...CARD });
    expect(paid.headers.get('location')).toBe(`https://shop.example.com/done?reference=${reference}&status=SUCCESSFUL`);
    const final = (await statusOf(reference)) as Payin;
    expect(final).toMatchObject({ status: 'SUCCESSFUL', attempts: [{ outcome: 'declined' }, { channel: 'card', outcome: 'succeeded', declineReason: null }] });
    expect(Date.parse(final.attempts[0]?.attemptedAt as string)).toBeLessThanOrEqual(Date.parse(final.attempts[1]?.attemptedAt as string));
    expect(new ContractValidator().validateResponse({ method: 'GET', path: `${PAYINS}/${reference}`, status: 200, body: final })).toEqual([]);
  });

  it('fails the payin at the last decline allowed, with too_many_attempts, and sends the customer to the merchant', async () => {
    const { checkoutUrl, reference } = await createPayin({ redirectUrl: 'https://shop.example.com/done' });
    const customer = browser();
    const cards = ['4000 0000 0000 0002', '4000 0000 0000 9995', '4000 0000 0000 0069'];
    const locations: Array<string | null> = [];
    for (const cardNumber of cards) {
      const page = await customer.open(checkoutUrl);
      locations.push((await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD, cardNumber })).headers.get('location'));
    }
    expect(locations).toEqual([`${new URL(checkoutUrl).pathname}?method=card`, `${new URL(checkoutUrl).pathname}?method=card`, `https://shop.example.com/done?reference=${reference}&status=FAILED`]);
    const failed = (await statusOf(reference)) as Payin;
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'too_many_attempts', checkoutUrl: null });
    expect(failed.attempts.map((attempt) => attempt.declineReason)).toEqual(['card_declined', 'insufficient_funds', 'expired_card']);
    const outcome = await customer.open(checkoutUrl);
    expect(outcome.html).toContain('this payment link takes no more attempts');
  });

  it('keeps the same payin when the customer switches from a declined card to a transfer', async () => {
    const { checkoutUrl, reference } = await createPayin();
    const customer = browser();
    const page = await customer.open(checkoutUrl);
    await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...DECLINED_CARD });
    const transfer = await customer.open(`${checkoutUrl}?method=bank_transfer`);
    expect(transfer.html).toContain('Your bank declined this card.');
    expect(transfer.html).toContain('id="transfer-heading"');
    const sent = await customer.submit(checkoutUrl, { csrf: transfer.csrf as string, action: 'confirm_transfer' });
    expect(sent.status).toBe(303);
    expect(await statusOf(reference)).toMatchObject({ reference, status: 'SUCCESSFUL', attempts: [{ channel: 'card', outcome: 'declined' }, { channel: 'bank_transfer', outcome: 'succeeded' }] });
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

  describe('merchant URLs', () => {
    const UNICODE_REDIRECT = 'https://пример.example/ünï?q=й';
    const NORMALISED_REDIRECT = 'https://xn--e1afmkfd.example/%C3%BCn%C3%AF?q=%D0%B9';

    it('stores and echoes a redirectUrl normalised: host in punycode, path and query percent-encoded', async () => {
      const { reference, created } = await createPayin({ redirectUrl: UNICODE_REDIRECT });
      expect(created.redirectUrl).toBe(NORMALISED_REDIRECT);
      expect((await statusOf(reference)).redirectUrl).toBe(NORMALISED_REDIRECT);
    });

    it('sends the customer on, after paying, with an ASCII Location built from the normalised redirectUrl', async () => {
      const { checkoutUrl, reference } = await createPayin({ redirectUrl: UNICODE_REDIRECT });
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      const paid = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD });
      expect(paid.status).toBe(303);
      const location = paid.headers.get('location') as string;
      expect(location).toMatch(/^[\x21-\x7e]+$/);
      expect(location).toBe(`${NORMALISED_REDIRECT}&reference=${reference}&status=SUCCESSFUL`);
      expect((await statusOf(reference)).status).toBe('SUCCESSFUL');
    });

    it('shows the outcome page with a link, not a 500, when a redirectUrl stored before normalisation cannot be sent as a Location', async () => {
      const links = api.app.get(CheckoutLinks);
      const checkout = links.tokens.issue();
      const reference = `legacy-${randomUUID().slice(0, 8)}`;
      const now = new Date();
      await api.app.get<symbol, PayinRepository>(PayinRepository).insertIfAbsent({
        merchantId: MERCHANT_A.merchantId,
        reference,
        amountMinor: 150050n,
        currency: 'NGN',
        customerEmail: 'ada@example.com',
        customerName: null,
        gateway: null,
        narration: null,
        notifyUrl: null,
        redirectUrl: 'https://shop.example/заказ',
        requestFingerprint: 'legacy',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 600_000),
        checkoutSeed: checkout.seed,
        checkoutTokenHash: checkout.tokenHash, provider: 'sandbox',
      });
      const checkoutUrl = links.urlOf(checkout.seed).replace(/^https?:\/\/[^/]+/, api.baseUrl);
      const customer = browser();
      const page = await customer.open(checkoutUrl);
      const paid = await customer.submit(checkoutUrl, { csrf: page.csrf as string, action: 'pay_card', ...CARD });
      expect(paid.status).toBe(200);
      expect(paid.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await paid.text();
      expect(html).toContain('Payment successful');
      expect(html).toContain(`<a href="https://shop.example/заказ?reference=${reference}&#38;status=SUCCESSFUL">Return to Merchant A</a>`);
      expect((await statusOf(reference)).status).toBe('SUCCESSFUL');
    });

    it.each([
      ['redirectUrl', 'a port-like user name', 'https://shop.example:443@evil.example/', 'unsafe_url'],
      ['redirectUrl', 'a user name and password', 'https://user:pass@shop.example/done', 'unsafe_url'],
      ['redirectUrl', 'an empty user name', 'https://@evil.example/', 'unsafe_url'],
      ['redirectUrl', 'backslashes for slashes', 'https:\\\\evil.example', 'unsafe_url'],
      ['redirectUrl', 'a backslash before @', 'https://shop.example\\@evil.example', 'unsafe_url'],
      ['redirectUrl', 'a backslash in the path', 'https://shop.example/a\\b', 'unsafe_url'],
      ['notifyUrl', 'a port-like user name', 'https://shop.example:443@evil.example/', 'unsafe_url'],
      ['notifyUrl', 'a backslash before @', 'https://shop.example\\@evil.example', 'unsafe_url'],
      ['redirectUrl', 'a host that has no punycode form', 'https://℀.example/', 'format'],
    ])('refuses a %s with %s at create, with 400', async (field, _name, url, code) => {
      const body = JSON.stringify({ amount: 5, currency: 'NGN', customerEmail: 'ada@example.com', reference: `bad-${randomUUID().slice(0, 8)}`, [field]: url });
      const refused = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
      expect(refused.status).toBe(400);
      expect(refused.json.details).toEqual([{ field, code, message: expect.stringContaining(field) }]);
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
    expect(String(tooLarge.body)).toContain(`larger than ${api.config.checkoutFormLimitBytes} bytes`);
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

describe('hosted checkout of a merchant no longer in force', () => {
  interface MerchantEntry {
    merchantId: string;
    credentials: Array<{ apiKey: string; secretKey: string; status?: string }>;
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-merchants-')), 'merchants.json');
  const original = JSON.parse(fs.readFileSync(TEST_MERCHANTS_FILE, 'utf8')) as MerchantEntry[];
  let api: TestApp;
  beforeAll(async () => {
    fs.writeFileSync(file, JSON.stringify(original));
    api = await startTestApp({ MERCHANTS_FILE: file });
  });
  afterAll(() => api.close());

  const reloadMerchants = async (entries: MerchantEntry[] | 'suspended') => {
    if (entries === 'suspended') return void (await merchantAdmin(api).run((admin) => admin.setStatus(MERCHANT_B.merchantId, 'suspended', 'test')));
    fs.writeFileSync(file, JSON.stringify(entries));
    await importMerchants(api, file);
    const merchant = (await merchantAdmin(api).run((admin) => admin.show(MERCHANT_B.merchantId))) as { status: string };
    if (merchant.status === 'suspended') await merchantAdmin(api).run((admin) => admin.setStatus(MERCHANT_B.merchantId, 'active', 'test'));
  };
  const storedStatus = async (reference: string) => (await api.app.get<symbol, PayinRepository>(PayinRepository).find({ merchantId: MERCHANT_B.merchantId, reference }))?.status;

  it('still shows the outcome of a payin paid before its merchant was suspended, naming no merchant ID', async () => {
    await reloadMerchants(original);
    const reference = `gone-paid-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ amount: 20, currency: 'NGN', customerEmail: 'ada@example.com', reference, redirectUrl: 'https://shop.example.com/done' });
    const checkoutUrl = (await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_B })).json.checkoutUrl as string;
    const customer = browser();
    const before = await customer.open(checkoutUrl);
    expect((await customer.submit(checkoutUrl, { csrf: before.csrf as string, action: 'confirm_transfer' })).status).toBe(303);

    await reloadMerchants('suspended');
    const page = await customer.open(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Payment successful');
    expect(page.html).not.toContain(MERCHANT_B.merchantId);
    expect(page.html).not.toContain('shop.example.com');
    const again = await customer.submit(checkoutUrl, { csrf: before.csrf as string, action: 'cancel' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Payment successful');
    expect(await storedStatus(reference)).toBe('SUCCESSFUL');
  });

  // An import never reactivates a key revoked in the database: the case that revokes every key of merchant B comes last.
  it.each<[string, (entries: MerchantEntry[]) => MerchantEntry[] | 'suspended']>([
    ['suspended', () => 'suspended'],
    ['with every key revoked', (entries) => entries.map((m) => (m.merchantId === MERCHANT_B.merchantId ? { ...m, credentials: m.credentials.map((c) => ({ ...c, status: 'revoked' })) } : m))],
  ])('answers the link of a merchant %s with a 410 page naming no merchant ID, on GET and POST, and the payin stays PENDING', async (_name, change) => {
    await reloadMerchants(original);
    const reference = `gone-${randomUUID().slice(0, 8)}`;
    const body = JSON.stringify({ amount: 20, currency: 'NGN', customerEmail: 'ada@example.com', reference });
    const created = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_B });
    expect(created.status).toBe(201);
    const checkoutUrl = created.json.checkoutUrl as string;
    const customer = browser();
    const before = await customer.open(checkoutUrl);
    expect(before.html).toContain('Merchant B');

    await reloadMerchants(change(original));
    const page = await customer.open(checkoutUrl);
    expect(page.status).toBe(410);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('This payment can no longer be completed');
    expect(page.html).not.toContain(MERCHANT_B.merchantId);
    expect(page.html).not.toContain('name="csrf"');

    const paid = await customer.submit(checkoutUrl, { csrf: before.csrf as string, action: 'pay_card', ...CARD });
    expect(paid.status).toBe(410);
    const paidHtml = await paid.text();
    expect(paidHtml).toContain('This payment can no longer be completed');
    expect(paidHtml).not.toContain(MERCHANT_B.merchantId);
    expect(await storedStatus(reference)).toBe('PENDING');

    const simulated = await signedCall(api.baseUrl, { path: `${PAYINS}/${reference}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_B });
    expect(simulated.status).toBe(401);
    expect(await storedStatus(reference)).toBe('PENDING');
  });

});

describe('the transfer deadline', () => {
  const clock = new TestClock();
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({}, { overrides: { clock: clock.now } });
  });
  afterAll(() => api.close());

  it('says by when to transfer, in Lagos time, with the minutes left by the service clock', async () => {
    const reference = `deadline-${randomUUID().slice(0, 8)}`;
    const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
    expect(created.status).toBe(201);
    const expiresAt = new Date(created.json.expiresAt as string);
    const lagos = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(expiresAt);
    const checkoutUrl = `${created.json.checkoutUrl as string}?method=bank_transfer`;
    expect((await browser().open(checkoutUrl)).html).toContain(`before <time datetime="${expiresAt.toISOString()}" data-deadline>${lagos} WAT</time> (<span data-minutes-left>30 minutes left</span>)`);
    clock.advance(11 * 60_000 + 30_000);
    expect((await browser().open(checkoutUrl)).html).toContain(`${lagos} WAT</time> (<span data-minutes-left>18 minutes left</span>)`);
    clock.advance(18 * 60_000);
    expect((await browser().open(checkoutUrl)).html).toContain(`${lagos} WAT</time> (<span data-minutes-left>less than a minute left</span>)`);
  });
});

describe('a branded merchant\'s checkout', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ MERCHANTS_FILE: brandedMerchantsFile() });
  });
  afterAll(() => api.close());

  it('shows its display name, its logo embedded in the page and its colour at AA contrast, each allowed by the CSP and nothing else', async () => {
    const reference = `brand-${randomUUID().slice(0, 8)}`;
    const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
    const page = await browser().open(created.json.checkoutUrl as string);
    expect(page.html).toContain('Pay Ada Stores');
    expect(page.html).toContain(`<img class="logo" src="${TEST_LOGO}" width="1" height="1" alt="">`);
    const brandStyle = /<style>(:root\{--brand:#[0-9a-f]{6}\})<\/style>/.exec(page.html)?.[1] as string;
    // #FFD400 is too light for white text: a darker shade of it is used.
    expect(brandStyle).not.toContain('#ffd400');
    const csp = page.headers.get('content-security-policy') as string;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(brandStyle).digest('base64')}'`);
    expect(csp).toContain('img-src data:;');
    // Merchant B has no branding: its pages load no image at all.
    const other = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_B });
    expect((await browser().open(other.json.checkoutUrl as string)).headers.get('content-security-policy')).toContain("img-src 'none'");
  });
});

describe('one payment method at a time', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it('shows the card first, each other method by its link, and refuses a method the payin does not offer with the page and 400', async () => {
    const reference = `one-${randomUUID().slice(0, 8)}`;
    const created = await signedCall(api.baseUrl, { path: PAYINS, body: JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference }), credential: MERCHANT_A });
    const checkoutUrl = created.json.checkoutUrl as string;
    const first = await browser().open(checkoutUrl);
    expect(first.html).toContain('id="card-heading"');
    expect(first.html).not.toContain('id="transfer-heading"');
    expect(first.html).toContain(`<a href="${new URL(checkoutUrl).pathname}?method=card" aria-current="page">Card</a>`);
    expect(first.html).toContain(`<a href="${new URL(checkoutUrl).pathname}?method=ussd">USSD</a>`);
    const ussd = await browser().open(`${checkoutUrl}?method=ussd`);
    expect({ status: ussd.status, ussd: ussd.html.includes('id="ussd-heading"'), card: ussd.html.includes('id="card-heading"') }).toEqual({ status: 200, ussd: true, card: false });
    for (const method of ['paypal', '']) {
      const refused = await browser().open(`${checkoutUrl}?method=${method}`);
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('That payment method is not offered for this payment.');
    }
    expect((await browser().open(`${checkoutUrl}?method=card&method=ussd`)).status).toBe(400);
  });
});
