// The dashboard's payins in Chromium, on the real service: a member finds a
// payin by its customer's email and refunds part of it, giving a fresh second
// factor when asked, and watches the refund's state move without reloading;
// the payins exported as CSV hold the rows the API lists. Every page and
// dialog of the slice is checked by axe-core at a phone's width and a
// desktop's, and at desktop width saved as docs/images/dashboard-<page>.png
// when PAYSIGN_SCREENSHOT_DIR names docs/images.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { csvObjects } from '@paysign/api/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { PaymentClient } from '@paysign/sdk';
import { AuthenticatorApp } from './support/authenticator-app';
import { violationsOf } from './support/axe';
import { SCREENSHOT_DIR, describeWithChromium, launchChromium } from './support/chromium';
import { DashboardService, type OnboardedMerchant } from './support/dashboard-service';
import { acceptLink, continueToDashboard, enrolAuthenticatorApp, giveCode, reached } from './support/dashboard-steps';

const WIDTHS: Array<[string, { width: number; height: number }]> = [
  ['a phone', { width: 375, height: 812 }],
  ['a desktop', { width: 1280, height: 800 }],
];

describeWithChromium('dashboard payins in Chromium', () => {
  let service: DashboardService;
  let browser: Browser;

  beforeAll(async () => {
    [service, browser] = await Promise.all([DashboardService.start(), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  describe.each(WIDTHS)('at the width of %s', (_width, viewport) => {
    const desktop = viewport.width >= 1280;
    const email = `ada-${randomUUID().slice(0, 6)}@example.com`;
    const paid = `order-${randomUUID().slice(0, 8)}`;
    let merchant: OnboardedMerchant;
    let sdk: PaymentClient;
    let context: BrowserContext;
    let page: Page;
    let app: AuthenticatorApp;

    beforeAll(async () => {
      merchant = await service.addMerchant(desktop ? 'PAYINS-WIDE' : 'PAYINS-PHONE');
      sdk = service.sdk(merchant, merchant);
      await sdk.payins.create({ amount: 1500, currency: 'NGN', customerEmail: email, customerName: 'Ada Obi', reference: paid, gateway: 'card' });
      await sdk.payins.simulate(paid, { outcome: 'successful' });
      for (const [reference, outcome] of [[`failed-${randomUUID().slice(0, 8)}`, 'failed'], [`open-${randomUUID().slice(0, 8)}`, undefined]] as const) {
        await sdk.payins.create({ amount: 820.5, currency: 'NGN', customerEmail: 'bola@example.com', reference, gateway: 'bank_transfer' });
        if (outcome) await sdk.payins.simulate(reference, { outcome });
      }
      context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      await acceptLink(page, merchant.setupUrl);
      app = await enrolAuthenticatorApp(page, service);
      await continueToDashboard(page);
    });
    afterAll(() => context?.close());

    /** No WCAG 2.1 A or AA violation on the page as it stands; at desktop width, its screenshot saved as dashboard-<name>.png. */
    async function check(shot?: string): Promise<void> {
      await page.waitForFunction("!document.body.innerText.includes('Loading…')");
      expect(await violationsOf(page)).toEqual([]);
      if (shot && desktop) {
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-${shot}.png`), fullPage: true });
      }
    }

    it('finds a payin by its customer, refunds part of it after a fresh factor, and shows the refund move', async () => {
      if (!desktop) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payins' }).click();
      await reached(page, 'Payins');
      await page.getByRole('region', { name: 'Payins, newest first' }).getByRole('row').nth(3).waitFor();
      await check('payins');
      await page.getByLabel('Search', { exact: true }).fill(email.toUpperCase());
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForFunction(`document.querySelectorAll('[aria-label="Payins, newest first"] tbody tr').length === 1`);
      await page.getByRole('link', { name: paid }).click();
      await reached(page, `Payin ${paid}`);
      await page.getByText('No refund yet.').waitFor();
      await check('payin');

      // The sign-in's factor is stale by now: the refund asks for another, then goes through.
      service.clock.advance((service.api.config.dashboard.freshFactorSeconds + 1) * 1000);
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Refund ${paid}` });
      await dialog.getByRole('radio', { name: 'Part of it' }).check();
      await dialog.getByLabel('Amount in naira').fill('2000');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      await dialog.getByRole('alert').filter({ hasText: 'is left to refund' }).waitFor();
      await dialog.getByLabel('Amount in naira').fill('500');
      await dialog.getByLabel('Reason').selectOption('requested_by_customer');
      await check('refund-dialog');
      await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
      const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
      await stepUp.waitFor();
      await check();
      await giveCode(stepUp, app);
      await page.getByRole('status').filter({ hasText: /^Refund rf_[\w-]+ made: (PENDING|PROCESSING)\.$/ }).waitFor();
      const refunds = page.getByRole('region', { name: 'Refunds of this payin, newest first' });
      // The sandbox provider settles it: the page, reading itself while the refund is in flight, shows it without a reload.
      await refunds.getByRole('row').filter({ hasText: /SUCCESSFUL.*₦500\.00.*requested_by_customer/ }).waitFor();
      await check('payin-refunded');
    });

    it('exports the payins as CSV, holding the rows the API lists', async () => {
      await page.goto(service.url('payins'));
      await reached(page, 'Payins');
      // The link the button is, fetched with the page's session cookie, as the browser's download fetches it.
      const href = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '';
      const answer = await page.request.get(`${service.origin}${href}`);
      expect([answer.status(), answer.headers()['content-disposition']]).toEqual([200, expect.stringMatching(/^attachment; filename="payins-/)]);
      const exported = csvObjects(await answer.text());
      const listed = (await (await page.request.get(`${service.origin}/payment/dashboard/api/payins?limit=100`)).json()) as { data: Array<{ reference: string; status: string; amount: number; customerEmail: string }> };
      expect(listed.data).toHaveLength(3);
      // The report is oldest first, the list newest first.
      expect(exported.map((r) => [r.reference, r.status, r.amount, r.customerEmail])).toEqual(listed.data.reverse().map((p) => [p.reference, p.status, (p.amount / 100).toFixed(2), p.customerEmail]));
      await page.getByLabel('Status').selectOption('FAILED');
      await page.locator('a[href*="status=FAILED"]', { hasText: 'Export CSV' }).waitFor();
      await page.getByRole('region', { name: 'Payins, newest first' }).getByRole('row').nth(1).getByText('FAILED', { exact: true }).waitFor();
      await check();
    });
  });
});
