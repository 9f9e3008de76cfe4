// Every view of the hosted checkout, checked by a machine for accessibility:
// axe-core's WCAG 2.1 A and AA rules, in Debian's chromium, at phone and
// desktop widths. The pages need no script; axe itself is run by the test
// through the browser's debugging protocol, past the pages' CSP.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MERCHANT_A, MERCHANT_B, brandedMerchantsFile, startTestApp, type TestApp } from '@paysign/api/testing';
import { PaymentClient, type Payin } from '@paysign/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { violationsOf } from './support/axe';
import { SCREENSHOT_DIR, describeWithChromium, launchChromium } from './support/chromium';

describeWithChromium('checkout accessibility, checked by axe-core', () => {
  let api: TestApp;
  let browser: Browser;
  let client: PaymentClient;
  let unbranded: PaymentClient;
  let run = 0;

  beforeAll(async () => {
    // Merchant A branded with a light colour the service must darken, and a logo; merchant B in the service's own colours.
    api = await startTestApp({ MERCHANTS_FILE: brandedMerchantsFile() });
    client = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_A });
    unbranded = new PaymentClient({ baseUrl: api.baseUrl, ...MERCHANT_B });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const createPayin = (): Promise<Payin> =>
    client.payins.create({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', narration: 'Order 1042', reference: `a11y-${Date.now()}-${++run}` });

  async function payByCard(page: Page, number: string): Promise<void> {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry date').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForLoadState();
  }

  /** Each view of the checkout, reached as a shopper reaches it, and the file its phone-width screenshot is saved as (docs/images/ holds them for docs/sandbox.md). */
  const VIEWS: Array<[string, (page: Page) => Promise<void>]> = [
    ['the card view', async (page) => void (await page.goto((await createPayin()).checkoutUrl as string))],
    ['the transfer view', async (page) => void (await page.goto(`${(await createPayin()).checkoutUrl as string}?method=bank_transfer`))],
    ['the USSD view', async (page) => void (await page.goto(`${(await createPayin()).checkoutUrl as string}?method=ussd`))],
    [
      'an unbranded merchant\'s payment methods',
      async (page) => {
        const payin = await unbranded.payins.create({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference: `a11y-b-${Date.now()}-${++run}` });
        await page.goto(payin.checkoutUrl as string);
      },
    ],
    [
      'an error summary after a mistyped card',
      async (page) => {
        await page.goto((await createPayin()).checkoutUrl as string);
        await page.getByLabel('Card number').fill('4242 4242 4242 4241');
        await page.getByRole('button', { name: /^Pay / }).click();
        await page.waitForSelector('[role=alert]');
      },
    ],
    [
      'a decline with another try',
      async (page) => {
        await page.goto((await createPayin()).checkoutUrl as string);
        await payByCard(page, '4000 0000 0000 9995');
        await page.waitForSelector('[role=alert]');
      },
    ],
    [
      'a payment declined too many times',
      async (page) => {
        await page.goto((await createPayin()).checkoutUrl as string);
        for (const number of ['4000 0000 0000 0002', '4000 0000 0000 9995', '4000 0000 0000 0069']) await payByCard(page, number);
        await page.waitForSelector('[role=status]');
      },
    ],
    [
      'a successful payment\'s outcome',
      async (page) => {
        await page.goto((await createPayin()).checkoutUrl as string);
        await page.getByRole('link', { name: 'Bank transfer' }).click();
        await page.getByRole('button', { name: 'I have sent the transfer' }).click();
        await page.waitForSelector('[role=status]');
      },
    ],
    [
      'a cancelled payment',
      async (page) => {
        await page.goto((await createPayin()).checkoutUrl as string);
        await page.getByRole('button', { name: 'Cancel payment' }).click();
        await page.waitForSelector('[role=status]');
      },
    ],
    [
      'an expired link (410)',
      async (page) => {
        const payin = await createPayin();
        await client.payins.simulate(payin.reference, { outcome: 'abandoned' });
        await page.goto(payin.checkoutUrl as string);
      },
    ],
    ['an unknown link (404)', async (page) => void (await page.goto(`${api.baseUrl}/payment/checkout/${'A'.repeat(43)}`))],
  ];

  it('finds the violations of a page that has them, so that an empty list means something', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<!doctype html><html><head><title>Bad</title></head><body><main><input type="text"><p style="color:#bbb;background:#fff">faint</p></main></body></html>');
    const found = await violationsOf(page);
    expect(found.map((violation) => violation.split(' ')[0])).toEqual(expect.arrayContaining(['html-has-lang', 'label', 'color-contrast']));
    await context.close();
  });

  describe.each([
    ['a phone', { width: 390, height: 844 }],
    ['a desktop', { width: 1366, height: 768 }],
  ])('at the width of %s', (_width, viewport) => {
    let context: BrowserContext;
    beforeAll(async () => {
      // The pages run no script and forbid it; the test's own axe is let through, for the check only.
      context = await browser.newContext({ viewport, bypassCSP: true });
    });
    afterAll(() => context?.close());

    it.each(VIEWS)('%s has no WCAG 2.1 A or AA violation', async (view, reach) => {
      const page = await context.newPage();
      try {
        await reach(page);
        expect(await violationsOf(page)).toEqual([]);
        if (viewport.width === 390) {
          fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
          await page.screenshot({ path: path.join(SCREENSHOT_DIR, `checkout-${view.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}.png`), fullPage: true });
        }
      } finally {
        await page.close();
      }
    });
  });
});
