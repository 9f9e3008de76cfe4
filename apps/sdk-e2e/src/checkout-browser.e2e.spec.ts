// A customer's checkout in a real browser: Debian's chromium, driven by
// playwright-core, never a downloaded browser. The merchant creates the payin
// through the SDK, the customer pays (or is declined and tries again, or
// cancels) on the hosted page with JavaScript off, and on, lands on the
// merchant's redirectUrl, and the merchant confirms the outcome server-side.
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { MERCHANT_A, startTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient, type Payin } from '@paysign/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SCREENSHOT_DIR, describeWithChromium, launchChromium } from './support/chromium';

/** The merchant's own site: the page the customer returns to. */
async function startMerchantSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://merchant.local');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Merchant</title><h1>Order ${url.searchParams.get('order') ?? ''}: ${url.searchParams.get('status') ?? ''}</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describeWithChromium('checkout in a real browser', () => {
  let api: TestApp;
  let merchant: { origin: string; server: Server };
  let browser: Browser;
  let context: BrowserContext;
  let client: PaymentClient;
  /** Every request the browser made, and every console message (a CSP violation is one). */
  const requested: string[] = [];
  const consoleMessages: string[] = [];
  let run = 0;

  beforeAll(async () => {
    api = await startTestApp();
    merchant = await startMerchantSite();
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A });
    browser = await launchChromium();
    // JavaScript off: the checkout must work without it. A phone-sized screen.
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    context.on('request', (request) => requested.push(request.url()));
    context.on('console', (message) => consoleMessages.push(message.text()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    merchant?.server.close();
    await api?.close();
  });

  async function createPayin(extra: { redirectUrl?: string } = {}): Promise<Payin> {
    run++;
    return client.payins.create({
      amount: 1500.5,
      currency: 'NGN',
      customerEmail: 'ada@example.com',
      customerName: 'Ada Obi',
      narration: 'Order 1042: two bags of rice',
      reference: run === 1 ? 'order-1042' : `order-1042-${run}`,
      redirectUrl: `${merchant.origin}/done?order=1042`,
      ...extra,
    });
  }

  async function payByCard(page: Page, number: string): Promise<void> {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry date').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay ₦1,500.50' }).click();
  }

  it('shows the merchant, the amount in naira, the narration and the reference, on a phone screen, from our origin only', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    const response = await page.goto(payin.checkoutUrl as string);
    expect(response?.status()).toBe(200);
    const text = await page.locator('main').innerText();
    for (const shown of ['Pay Merchant A', '₦1,500.50', 'Order 1042: two bags of rice', 'order-1042', 'Receipt to', 'ada@example.com', 'Test mode.', 'Sandbox test cards', 'Pay by card', 'Bank transfer', 'USSD', 'Cancel payment', 'Secured by Paysign']) {
      expect(text).toContain(shown);
    }
    // The banner speaks to whoever is testing, not of the service's files.
    expect(text).not.toContain('docs/sandbox.md');
    // One method at a time: the card form, and links to the others. The first screen holds the card form's Pay button.
    expect(text).not.toContain('Pay by bank transfer');
    const pay = await page.getByRole('button', { name: 'Pay ₦1,500.50' }).boundingBox();
    expect((pay?.y ?? Infinity) + (pay?.height ?? 0)).toBeLessThanOrEqual(844);
    // Fits the screen: nothing sticks out past the right edge of a 390 px phone.
    for (const box of await Promise.all((await page.locator('main *').all()).map((element) => element.boundingBox()))) {
      if (box) expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'checkout-sandbox.png'), fullPage: true });
    await page.close();
  });

  it('pays with the success test card, lands on the redirectUrl with reference and status, and the SDK sees SUCCESSFUL', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await payByCard(page, '4242 4242 4242 4242');
    await page.waitForURL(`${merchant.origin}/done**`);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('order')).toBe('1042');
    expect(landed.searchParams.get('reference')).toBe(payin.reference);
    expect(landed.searchParams.get('status')).toBe('SUCCESSFUL');
    expect(await page.locator('h1').innerText()).toBe('Order 1042: SUCCESSFUL');
    // The redirect is not proof of payment: the merchant checks server-side.
    expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'SUCCESSFUL', paidAt: expect.any(String) });
    // Back to the link: the outcome, unchanged.
    await page.goto(payin.checkoutUrl as string);
    expect(await page.locator('[role=status]').innerText()).toContain('Payment successful');
    await page.close();
  });

  it('with script off, is declined, says why, then pays with another card for the same payin: SUCCESSFUL with two attempts', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await payByCard(page, '4000 0000 0000 9995');
    await page.waitForURL(`${payin.checkoutUrl as string}?method=card`);
    expect(await page.getByRole('alert').innerText()).toBe('Your bank declined this card: there is not enough money on it. Try another card, pay by transfer or pay with USSD. You have 2 attempts left.');
    expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'PENDING', attempts: [{ channel: 'card', outcome: 'declined', declineReason: 'insufficient_funds' }] });
    await payByCard(page, '4242 4242 4242 4242');
    await page.waitForURL(`${merchant.origin}/done**`);
    expect(new URL(page.url()).searchParams.get('status')).toBe('SUCCESSFUL');
    const paid = await client.payins.get(payin.reference);
    expect(paid).toMatchObject({ status: 'SUCCESSFUL', attempts: [{ outcome: 'declined' }, { channel: 'card', outcome: 'succeeded', declineReason: null }] });
    await page.close();
  });

  it('with script on, is declined, then switches to a transfer and pays for the same payin', async () => {
    const scripted = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const payin = await createPayin();
      const page = await scripted.newPage();
      await page.goto(payin.checkoutUrl as string);
      await payByCard(page, '4000 0000 0000 0002');
      await page.waitForURL(`${payin.checkoutUrl as string}?method=card`);
      expect(await page.getByRole('alert').innerText()).toContain('Your bank declined this card. Try another card, pay by transfer or pay with USSD.');
      await page.getByRole('link', { name: 'Bank transfer' }).click();
      await page.getByRole('button', { name: 'I have sent the transfer' }).click();
      await page.waitForURL(`${merchant.origin}/done**`);
      expect(new URL(page.url()).searchParams.get('reference')).toBe(payin.reference);
      expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'SUCCESSFUL', attempts: [{ channel: 'card', outcome: 'declined' }, { channel: 'bank_transfer', outcome: 'succeeded' }] });
    } finally {
      await scripted.close();
    }
  });

  it('fails the payin at the third decline: FAILED with too_many_attempts at the merchant and through the SDK', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await payByCard(page, '4000 0000 0000 0002');
    await page.waitForURL(`${payin.checkoutUrl as string}?method=card`);
    await payByCard(page, '4000 0000 0000 0069');
    expect(await page.getByRole('alert').innerText()).toContain('This is your last attempt.');
    await payByCard(page, '4000 0000 0000 0127');
    await page.waitForURL(`${merchant.origin}/done**`);
    expect(new URL(page.url()).searchParams.get('status')).toBe('FAILED');
    const failed = await client.payins.get(payin.reference);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'too_many_attempts' });
    expect(failed.attempts.map((attempt) => attempt.declineReason)).toEqual(['card_declined', 'expired_card', 'incorrect_cvc']);
    await page.close();
  });

  it('cancels: CANCELLED at the merchant and through the SDK', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await page.getByRole('button', { name: 'Cancel payment' }).click();
    await page.waitForURL(`${merchant.origin}/done**`);
    expect(new URL(page.url()).searchParams.get('status')).toBe('CANCELLED');
    expect(await client.payins.get(payin.reference)).toMatchObject({ status: 'CANCELLED', failureReason: 'customer_cancelled' });
    await page.close();
  });

  it('shows a mistyped card number next to its field, focusable from the error summary, and charges nothing', async () => {
    const payin = await createPayin();
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await payByCard(page, '4242 4242 4242 4241');
    expect(page.url()).toBe(payin.checkoutUrl);
    const field = page.getByLabel('Card number');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#cardNumber-error').innerText()).toContain('check digit is wrong');
    await page.getByRole('link', { name: /check digit is wrong/ }).click();
    expect(await page.locator('#cardNumber:focus').count()).toBe(1);
    expect((await client.payins.get(payin.reference)).status).toBe('PENDING');
    await page.close();
  });

  it('without a redirectUrl, shows the outcome on its own page', async () => {
    const payin = await client.payins.create({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: `order-no-redirect-${Date.now()}` });
    const page = await context.newPage();
    await page.goto(payin.checkoutUrl as string);
    await page.getByRole('link', { name: 'Bank transfer' }).click();
    expect(await page.locator('main').innerText()).toContain('minutes left');
    await page.getByRole('button', { name: 'I have sent the transfer' }).click();
    await page.waitForURL(payin.checkoutUrl as string);
    expect(await page.locator('[role=status]').innerText()).toContain('Payment successful');
    expect((await client.payins.get(payin.reference)).status).toBe('SUCCESSFUL');
    await page.close();
  });

  it('with script on, copies the account number and the amount, and keeps the deadline current, within the page\'s CSP', async () => {
    const scripted = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const messages: string[] = [];
    scripted.on('console', (message) => messages.push(message.text()));
    await scripted.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.baseUrl });
    try {
      const payin = await createPayin();
      const page = await scripted.newPage();
      await page.clock.install({ time: new Date() });
      await page.goto(`${payin.checkoutUrl as string}?method=bank_transfer`);
      const clipboard = () => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
      await page.getByRole('button', { name: 'Copy account number' }).click();
      expect(await clipboard()).toMatch(/^99[0-9]{8}$/);
      await page.getByRole('button', { name: 'Copy amount' }).click();
      expect(await clipboard()).toBe('1500.50');
      expect(await page.locator('[data-minutes-left]').innerText()).toBe('29 minutes left');
      await page.clock.fastForward('10:00');
      expect(await page.locator('[data-minutes-left]').innerText()).toBe('19 minutes left');
      expect(messages.filter((message) => /Content Security Policy|Refused to/i.test(message))).toEqual([]);
    } finally {
      await scripted.close();
    }
  });

  it('made no request outside the service and the merchant, and broke no Content-Security-Policy', () => {
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([api.baseUrl, merchant.origin].sort());
    expect(consoleMessages.filter((message) => /Content Security Policy|Refused to/i.test(message))).toEqual([]);
  });
});
