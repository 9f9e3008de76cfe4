// The dashboard's balance and settlements in Debian's chromium, on the real
// service: an owner names a new settlement account (an account enquiry shows
// the holder's name; confirming asks for a fresh second factor), sees it
// pending with the time it comes into force, cancels it, names it again,
// and once it is in force settles the balance and reads the settlement with
// the entries it covered. Every page is checked by axe-core at a phone's
// width and a desktop's; at desktop width each is saved as
// docs/images/dashboard-<page>.png when PAYSIGN_SCREENSHOT_DIR names docs/images.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JobRunner } from '@paysign/api/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AuthenticatorApp } from './support/authenticator-app';
import { violationsOf } from './support/axe';
import { SCREENSHOT_DIR, describeWithChromium, launchChromium } from './support/chromium';
import { DashboardService, type OnboardedMerchant } from './support/dashboard-service';
import { acceptLink, continueToDashboard, enrolAuthenticatorApp, giveCode, reached } from './support/dashboard-steps';

/** Ten minutes: long enough to see the change pending, short of the session's idle limit, which the clock jumps past it must not reach. */
const CHANGE_DELAY_SECONDS = 600;
const WIDTHS: Array<[string, { width: number; height: number }]> = [
  ['a phone', { width: 375, height: 812 }],
  ['a desktop', { width: 1280, height: 800 }],
];

describeWithChromium('the balance and settlements pages in a real browser', () => {
  let service: DashboardService;
  let browser: Browser;

  beforeAll(async () => {
    // Payins settle into available at once, so that there is a balance to settle.
    [service, browser] = await Promise.all([DashboardService.start({ SETTLEMENT_DELAY_SECONDS: '0', SETTLEMENT_ACCOUNT_CHANGE_DELAY_SECONDS: String(CHANGE_DELAY_SECONDS), SANDBOX_PAYOUT_DELAY_MS: '0' }), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  describe.each(WIDTHS)('at the width of %s', (_width, viewport) => {
    const desktop = viewport.width >= 1280;
    let merchant: OnboardedMerchant;
    let context: BrowserContext;
    let page: Page;
    let app: AuthenticatorApp;

    beforeAll(async () => {
      merchant = await service.addMerchant(desktop ? 'BALWIDE' : 'BALPHONE');
      await service.collect(merchant, 125_000);
      await service.collect(merchant, 40_000);
      // The dashboard's CSP forbids injected script; the test's own axe is let through, for the check only.
      context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      await acceptLink(page, merchant.setupUrl);
      app = await enrolAuthenticatorApp(page, service);
      await continueToDashboard(page);
    });
    afterAll(() => context?.close());

    /** No WCAG 2.1 A or AA violation on the page as it stands; at desktop width its full page saved as dashboard-<name>.png. */
    async function check(name?: string): Promise<void> {
      await page.waitForFunction("!document.body.innerText.includes('Loading…')");
      expect(await violationsOf(page)).toEqual([]);
      if (name && desktop) {
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-${name}.png`), fullPage: true });
      }
    }

    /** Goes to a page by the main navigation, as a member does; on a phone through its menu. */
    async function navigate(label: string): Promise<void> {
      if (!desktop) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
      await reached(page, label);
    }

    /** Finds the account by enquiry and confirms it; answers the service's time just before the confirmation. */
    async function nameAccount(): Promise<number> {
      const card = page.getByRole('region', { name: 'Settlement account' });
      await card.getByLabel('Bank', { exact: true }).selectOption('058');
      await card.getByLabel('Account number').fill('0123456785');
      await card.getByRole('button', { name: 'Find account' }).click();
      const confirm = card.getByRole('button', { name: /^Settle to / });
      await confirm.waitFor();
      await check();
      const before = service.clock.now();
      await confirm.click();
      return before;
    }

    it('lists the balances and the entries, filtered by type', async () => {
      await navigate('Balance');
      const entries = page.getByRole('region', { name: 'NGN entries, newest first' });
      await entries.getByRole('link', { name: /^Payin order-/ }).first().waitFor();
      // Each payin credited pending, then settled from pending into available (and its fee, if any): more than the two credits.
      expect(await entries.getByRole('row').count()).toBeGreaterThan(1 + 2);
      await check('balance');
      await page.getByLabel('Type').selectOption('payin_credit');
      await page.waitForFunction("document.querySelector('[aria-label=\"NGN entries, newest first\"] tbody')?.rows.length === 2");
      expect(await entries.getByRole('cell', { name: 'Payin credit', exact: true }).count()).toBe(2);
    });

    it('changes the settlement account after a fresh factor, shows it pending until it comes into force, and cancels it', async () => {
      await navigate('Settlements');
      const card = page.getByRole('region', { name: 'Settlement account' });
      await card.getByText('None yet').waitFor();
      await check();
      // The factor given at enrolment is no longer fresh: confirming asks for another, then goes on.
      service.clock.advance((service.api.config.dashboard.freshFactorSeconds + 1) * 1000);
      const from = await nameAccount();
      const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
      await stepUp.waitFor();
      await check();
      await giveCode(stepUp, app);
      const pending = card.getByText(/comes into force at/);
      await pending.waitFor();
      const to = service.clock.now();
      const effectiveAt = Date.parse(String(await pending.locator('time').getAttribute('datetime')));
      expect(effectiveAt).toBeGreaterThanOrEqual(from + CHANGE_DELAY_SECONDS * 1000);
      expect(effectiveAt).toBeLessThanOrEqual(to + CHANGE_DELAY_SECONDS * 1000);
      await check('settlements-pending');

      await card.getByRole('button', { name: 'Cancel the change' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel the pending change?' });
      await dialog.waitFor();
      await check();
      await dialog.getByRole('button', { name: 'Cancel the change' }).click();
      await pending.waitFor({ state: 'detached' });
      await card.getByText('None yet').waitFor();
    });

    it('settles only when asked once the schedule is manual, and shows the settlement with the entries it covered', async () => {
      // Manual: the run that brings the account into force settles nothing; the owner settles when they choose.
      const schedule = page.getByRole('form', { name: 'Change the schedule' });
      await schedule.getByLabel('Interval').selectOption('manual');
      await schedule.getByRole('button', { name: 'Save schedule' }).click();
      await page.getByRole('status').filter({ hasText: 'Schedule saved.' }).waitFor();
      await page.getByRole('region', { name: 'Schedule' }).getByText('manual (only when asked)').waitFor();
      await nameAccount();
      const card = page.getByRole('region', { name: 'Settlement account' });
      await card.getByText(/comes into force at/).waitFor();
      service.clock.advance((CHANGE_DELAY_SECONDS + 1) * 1000);
      await service.api.app.get(JobRunner).runNow('settlement-run');
      await page.reload();
      await reached(page, 'Settlements');
      await card.getByText(/^ADAEZE NWOSU, 0123456785 \(bank 058\), since/).waitFor();
      await page.getByRole('region', { name: 'Settlements', exact: true }).getByText('No settlement yet.').waitFor();

      await page.getByRole('button', { name: 'Settle now' }).click();
      const confirm = page.getByRole('dialog', { name: 'Settle the available balance now?' });
      await confirm.waitFor();
      await check();
      await confirm.getByRole('button', { name: 'Settle now' }).click();
      // Naming the account was more than a fresh factor ago: the step-up dialog asks again.
      const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
      await stepUp.waitFor();
      await giveCode(stepUp, app);
      const list = page.getByRole('region', { name: 'Settlements, newest first' });
      const link = list.getByRole('link', { name: /^stl_/ });
      await link.waitFor();
      await check('settlements');

      await link.click();
      await reached(page, /^Settlement stl_/);
      const covered = page.getByRole('region', { name: /^Entries settlement stl_\w+ covered/ });
      await covered.getByRole('link', { name: /^Payin order-/ }).first().waitFor();
      // Two payins settled into available: the two entries it covered, which sum to its amount (₦165,000.00 less fees).
      expect(await covered.getByRole('link', { name: /^Payin order-/ }).count()).toBe(2);
      await check('settlement');
    });
  });
});
