// A customer pays through the upstream provider in a real browser: the
// service in production mode with PAYMENT_GATEWAY=paystack, against the fake
// provider (tools/fake-paystack). The customer opens checkoutUrl, chooses card,
// pays on the provider's page, comes back, and lands on the merchant's page;
// the merchant confirms through the SDK, sees the credit in its balance, and
// the event queued for its webhook endpoint. Production links are https on
// PUBLIC_BASE_URL, so the service sits behind a TLS-terminating proxy on
// loopback, as it would behind a load balancer, with a certificate made for
// the test; the merchant's site is a page on its own https origin.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakePaystack, type FakePaystack } from '@paysign/fake-paystack';
import { MERCHANT_A, startProductionTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient, type Payin } from '@paysign/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { violationsOf } from './support/axe';
import { describeWithChromium, launchChromium } from './support/chromium';

const LIVE_KEY = 'sk_live_browsertest0123456789abcdef0123456789';

/** A self-signed certificate for localhost, made with openssl for this run. */
function localhostCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  const pair = { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

async function listenTls(tls: { key: Buffer; cert: Buffer }, handler: Parameters<typeof createHttpsServer>[1]): Promise<{ origin: string; server: Server }> {
  const server = createHttpsServer(tls, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://localhost:${(server.address() as AddressInfo).port}`, server };
}

describeWithChromium('checkout through the upstream provider, in a real browser, in production mode', () => {
  let fake: FakePaystack;
  let api: TestApp;
  let front: { origin: string; server: Server };
  let shop: { origin: string; server: Server };
  let serviceUrl = '';
  let browser: Browser;
  let context: BrowserContext;
  let client: PaymentClient;
  let run = 0;
  /** Every console message: a Content-Security-Policy violation (the form's redirect to the provider's page) is one. */
  const consoleMessages: string[] = [];

  beforeAll(async () => {
    const tls = localhostCertificate();
    // The TLS-terminating proxy in front of the service: PUBLIC_BASE_URL.
    front = await listenTls(tls, (incoming, outgoing) => {
      const forwarded = httpRequest(`${serviceUrl}${incoming.url ?? '/'}`, { method: incoming.method, headers: { ...incoming.headers, host: new URL(serviceUrl).host } }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      incoming.pipe(forwarded);
    });
    // The merchant's site, where the customer lands.
    shop = await listenTls(tls, (_incoming, outgoing) => {
      outgoing.writeHead(200, { 'content-type': 'text/html' });
      outgoing.end('<!doctype html><title>Shop</title><h1>Thank you</h1>');
    });
    fake = await startFakePaystack({ secretKey: LIVE_KEY });
    api = await startProductionTestApp({ PAYMENT_GATEWAY: 'paystack', PAYSTACK_SECRET_KEY: LIVE_KEY, PAYSTACK_BASE_URL: fake.url, PUBLIC_BASE_URL: front.origin, SETTLEMENT_DELAY_SECONDS: '0' });
    serviceUrl = api.baseUrl;
    fake.webhookUrl = `${api.baseUrl}/payment/provider-webhooks/paystack`;
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A });
    browser = await launchChromium();
    // The test's own certificate is trusted for this context only.
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, ignoreHTTPSErrors: true });
    context.on('console', (message) => consoleMessages.push(message.text()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await fake?.close();
    front?.server.close();
    shop?.server.close();
  });

  async function createPayin(): Promise<Payin> {
    run++;
    return client.payins.create({
      amount: 1500.5,
      currency: 'NGN',
      customerEmail: 'ada@example.com',
      reference: `provider-order-${Date.now()}-${run}`,
      redirectUrl: `${shop.origin}/done?order=${run}`,
      notifyUrl: 'https://merchant.example.com/hooks',
    });
  }

  /** Opens the checkout, chooses card, and pays or declines on the provider's page; resolves once the browser is on the merchant's page. */
  async function payThroughProvider(payin: Payin, outcome: 'Pay' | 'Decline'): Promise<Page> {
    const page = await context.newPage();
    expect((await page.goto(payin.checkoutUrl as string))?.status()).toBe(200);
    expect(await page.locator('main').innerText()).toContain("You will pay on Paystack's secure page");
    await page.getByRole('button', { name: 'Pay ₦1,500.50 by card' }).click();
    await page.waitForURL(`${fake.url}/checkout/**`);
    expect(await page.locator('h1').innerText()).toBe('Fake Paystack');
    await page.getByRole('button', { name: outcome === 'Pay' ? 'Pay NGN 1500.50' : 'Decline' }).click();
    await page.waitForURL(`${shop.origin}/done**`);
    return page;
  }

  it('pays on the provider\'s page, returns, lands on the merchant with SUCCESSFUL, with the credit in the ledger and the event queued for the merchant', async () => {
    fake.faults.webhookTiming = 'never';
    const before = await client.balance.get();
    const payin = await createPayin();
    const page = await payThroughProvider(payin, 'Pay');
    const landed = new URL(page.url());
    expect([landed.searchParams.get('reference'), landed.searchParams.get('status')]).toEqual([payin.reference, 'SUCCESSFUL']);
    const paid = await client.payins.get(payin.reference);
    expect(paid).toMatchObject({ status: 'SUCCESSFUL', paidAt: expect.any(String), fee: expect.any(Number) });
    // The merchant is credited the amount net of its fee.
    const after = await client.balance.get();
    expect(Math.round((after.available + after.pending - before.available - before.pending) * 100)).toBe(Math.round((1500.5 - (paid.fee as number)) * 100));
    const entries = await client.balance.entries({ limit: 5 });
    expect(entries.data.some((entry) => entry.objectType === 'payin' && entry.reference === payin.reference && entry.type === 'payin_credit')).toBe(true);
    expect((await client.payins.events(payin.reference)).map((event) => event.type)).toEqual(['payin.successful']);
    await page.close();
  });

  it('is declined on the provider\'s page: FAILED at the merchant, with the reason', async () => {
    fake.faults.webhookTiming = 'never';
    const payin = await createPayin();
    const page = await payThroughProvider(payin, 'Decline');
    expect(new URL(page.url()).searchParams.get('status')).toBe('FAILED');
    expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds' });
    await page.close();
  });

  it('takes the provider\'s webhook arriving before the customer returns, and the return then changes nothing', async () => {
    fake.faults.webhookTiming = 'before-return';
    const payin = await createPayin();
    const page = await payThroughProvider(payin, 'Pay');
    expect(new URL(page.url()).searchParams.get('status')).toBe('SUCCESSFUL');
    expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'SUCCESSFUL' });
    expect((await client.payins.events(payin.reference)).map((event) => event.type)).toEqual(['payin.successful']);
    await page.close();
  });

  it('broke no Content-Security-Policy on the way to the provider and back', () => {
    expect(consoleMessages.filter((message) => /Content Security Policy|Refused to/i.test(message))).toEqual([]);
  });

  it('has no WCAG 2.1 A or AA violation on the hosted methods view or the pending return page', async () => {
    // A context of its own: axe runs past the pages' CSP, which the test above holds the others to.
    const checking = await browser.newContext({ viewport: { width: 390, height: 844 }, ignoreHTTPSErrors: true, bypassCSP: true });
    try {
      const payin = await createPayin();
      const page = await checking.newPage();
      await page.goto(payin.checkoutUrl as string);
      expect(await violationsOf(page)).toEqual([]);
      await page.goto(`${payin.checkoutUrl as string}/return`);
      expect(await page.locator('main').innerText()).toContain('Check again');
      expect(await violationsOf(page)).toEqual([]);
    } finally {
      await checking.close();
    }
  });
});
