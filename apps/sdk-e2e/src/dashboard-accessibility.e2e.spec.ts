// Every page of the merchant dashboard, and its main dialogs, checked by a
// machine for accessibility: axe-core's WCAG 2.1 A and AA rules, in Debian's
// chromium, at a phone's width (375 px) and a desktop's (1280 px), each
// reached as a member reaches it on the real service. At desktop width each
// page is saved as docs/images/dashboard-<page>.png when
// PAYSIGN_SCREENSHOT_DIR names docs/images (docs/dashboard.md shows them).
import { WebhookReceiver } from '@paysign/api/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AuthenticatorApp } from './support/authenticator-app';
import { expectAccessible, violationsOf, type Shot } from './support/axe';
import { describeWithChromium, launchChromium } from './support/chromium';
import { DashboardService, type OnboardedMerchant } from './support/dashboard-service';
import { acceptLink, addVirtualAuthenticator, continueToDashboard, enrolAuthenticatorApp, giveCode, joinByLink, reached, signInWithPassword } from './support/dashboard-steps';

const WIDTHS: Array<[string, { width: number; height: number }]> = [
  ['a phone', { width: 375, height: 812 }],
  ['a desktop', { width: 1280, height: 800 }],
];

describeWithChromium('dashboard accessibility, checked by axe-core', () => {
  let service: DashboardService;
  let receiver: WebhookReceiver;
  let browser: Browser;

  beforeAll(async () => {
    [service, receiver, browser] = await Promise.all([DashboardService.start({ WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0' }), WebhookReceiver.start(), launchChromium()]);
    receiver.answer(() => ({ status: 500, body: 'down for maintenance' }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.close();
  });

  it('finds a violation put into a dashboard page, so that an empty list means something', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(service.url('sign-in'));
      await reached(page, 'Sign in');
      await page.evaluate("document.querySelector('main').append(Object.assign(document.createElement('input'), { type: 'text' }))");
      expect((await violationsOf(page)).map((violation) => violation.split(' ')[0])).toEqual(['label']);
    } finally {
      await context.close();
    }
  });

  describe.each(WIDTHS)('at the width of %s', (_width, viewport) => {
    const desktop = viewport.width >= 1280;
    let merchant: OnboardedMerchant;
    let context: BrowserContext;
    let page: Page;
    let app: AuthenticatorApp;

    beforeAll(async () => {
      merchant = await service.addMerchant(desktop ? 'WIDE' : 'PHONE');
      // Money in, so that home shows a balance and collections.
      await service.collect(merchant, 125_000);
      // The dashboard's CSP forbids injected script; the test's own axe is let through, for the check only.
      context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      await addVirtualAuthenticator(context, page);
    });
    afterAll(() => context?.close());

    /** No WCAG 2.1 A or AA violation on the page as it stands; at desktop width (or `phone`), its screenshot (the screen, or the `fullPage`) saved as dashboard-<name>.png. */
    const check = (shot?: Shot): Promise<void> => expectAccessible(page, { desktop, ...(shot ? { shot } : {}) });

    /** Opens the page at `route` and waits for its heading. */
    async function open(route: string, title: string | RegExp): Promise<void> {
      await page.goto(service.url(route));
      await reached(page, title);
    }

    it('the welcome page of a setup link', async () => {
      await page.goto(merchant.setupUrl);
      await page.getByLabel('New password').waitFor();
      await check({ name: 'welcome' });
    });

    it('the enrolment page, and its authenticator app form', async () => {
      await acceptLink(page, merchant.setupUrl);
      await check();
      app = await enrolAuthenticatorApp(page, service);
      await check({ name: 'enrol' });
      await continueToDashboard(page);
    });

    it('home, and on a phone its menu open', async () => {
      await page.getByRole('heading', { name: 'Balances' }).waitFor();
      await check({ name: 'home' });
      await check({ name: 'home-phone', phone: true });
      if (!desktop) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).waitFor();
        await check();
      }
    });

    it('security, with a passkey registered, and the sign-out-everywhere dialog', async () => {
      await open('security', 'Security');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('status').filter({ hasText: 'is registered.' }).waitFor();
      await page.getByRole('region', { name: 'Your passkeys' }).waitFor();
      await check({ name: 'security' });
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
      await dialog.waitFor();
      await check();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    it('API keys, and the new secret, roll and revoke dialogs', async () => {
      await open('keys', 'API keys');
      await page.getByRole('checkbox', { name: /^payouts:create / }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByRole('dialog', { name: /^Key pk_\w+ created$/ });
      await secret.waitFor();
      await check();
      await secret.getByRole('button', { name: 'Done' }).click();
      await check({ name: 'keys' });
      await page.getByRole('button', { name: `Roll key ${merchant.apiKey}` }).click();
      const roll = page.getByRole('dialog', { name: `Roll key ${merchant.apiKey}` });
      await roll.waitFor();
      await check();
      await roll.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: `Revoke key ${merchant.apiKey}` }).click();
      const revoke = page.getByRole('dialog', { name: `Revoke key ${merchant.apiKey}?` });
      await revoke.waitFor();
      await check();
      await revoke.getByRole('button', { name: 'Cancel' }).click();
    });

    it('the step-up dialog, once the last factor is no longer fresh', async () => {
      service.clock.advance((service.api.config.dashboard.freshFactorSeconds + 1) * 1000);
      await open('keys', 'API keys');
      await page.getByRole('checkbox', { name: /^refunds:create / }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
      await stepUp.waitFor();
      await check();
      await giveCode(stepUp, app);
      await page.getByRole('dialog', { name: /^Key pk_\w+ created$/ }).getByRole('button', { name: 'Done' }).click();
    });

    it('webhook endpoints, and the signing secret dialog', async () => {
      await open('webhook-endpoints', 'Webhook endpoints');
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Events').fill('payin.successful, payout.failed');
      await page.getByLabel('Description (optional)').fill('Order system');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secret = page.getByRole('dialog', { name: 'Endpoint created' });
      await secret.waitFor();
      await check();
      await secret.getByRole('button', { name: 'Done' }).click();
      await check({ name: 'webhook-endpoints' });
    });

    it("an endpoint's settings and deliveries, with a failed attempt", async () => {
      await page.getByRole('link', { name: receiver.url }).click();
      await reached(page, `Endpoint ${receiver.url}`);
      await page.getByRole('button', { name: 'Send test event' }).click();
      const delivery = page.getByRole('article');
      // The list reads itself again while the delivery is pending or failing: its failure shows without a reload.
      await delivery.locator('.badge', { hasText: /^failed$/ }).waitFor({ timeout: 15_000 });
      // The deliveries are below the settings: the whole page.
      await check({ name: 'webhook-endpoint', fullPage: true });
    });

    it('team, with a member, a pending invitation, and the invitation and remove dialogs', async () => {
      await open('team', 'Team');
      const invite = async (email: string, role: string): Promise<string> => {
        const form = page.getByRole('region', { name: 'Invite a member' });
        await form.getByLabel('Email').fill(email);
        await form.getByLabel('Role').selectOption(role);
        await form.getByRole('button', { name: 'Send invitation' }).click();
        const dialog = page.getByRole('dialog', { name: `Invitation for ${email}` });
        const url = await dialog.getByLabel('Invitation link').inputValue();
        await check();
        await dialog.getByRole('button', { name: 'Done' }).click();
        return url;
      };
      const developer = `developer-${viewport.width}@example.com`;
      await joinByLink(service, await invite(developer, 'developer'));
      await invite(`approver-${viewport.width}@example.com`, 'approver');
      await page.reload();
      await page.getByLabel(`Role of ${developer}`).waitFor();
      await check({ name: 'team' });
      await page.getByRole('button', { name: `Remove ${developer}` }).click();
      const remove = page.getByRole('dialog', { name: `Remove ${developer}?` });
      await remove.waitFor();
      await check();
      await remove.getByRole('button', { name: 'Cancel' }).click();
    });

    it('the security log', async () => {
      await open('security-log', 'Security log');
      await page.getByRole('region', { name: 'Security log, newest first' }).waitFor();
      await check({ name: 'security-log' });
    });

    it('approvals, and the approve dialog', async () => {
      const reference = await service.payoutAwaitingApproval(merchant, 2500);
      await open('approvals', 'Approvals');
      await check({ name: 'approvals' });
      await page.getByRole('button', { name: `Approve payout ${reference}` }).click();
      const dialog = page.getByRole('dialog', { name: `Approve payout ${reference}` });
      await dialog.getByRole('button', { name: 'Approve with passkey' }).and(page.locator(':enabled')).waitFor();
      await check();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    it('sign-in: a refused password, then the second factor', async () => {
      const signedOut = await browser.newContext({ viewport, bypassCSP: true });
      signedOut.setDefaultTimeout(10_000);
      const previous = page;
      page = await signedOut.newPage();
      try {
        await open('sign-in', 'Sign in');
        await check({ name: 'sign-in' });
        await page.getByLabel('Email').fill(merchant.ownerEmail);
        await page.getByLabel('Password').fill('not the password at all');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').waitFor();
        await check();
        await signInWithPassword(page, service, merchant.ownerEmail);
        await check({ name: 'second-factor' });
      } finally {
        page = previous;
        await signedOut.close();
      }
    });
  });
});
