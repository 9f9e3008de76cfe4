// The merchant dashboard in a real browser: Debian's chromium, driven by
// playwright-core, on the real service over HTTP and PostgreSQL. An owner is
// onboarded through the link `merchants add --owner-email` prints, signs in
// with a TOTP code and with a passkey (chromium's virtual authenticator),
// invites a teammate, manages API keys (proved by signed requests) and a
// webhook endpoint's deliveries, all under the dashboard's strict CSP.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { WebhookReceiver } from '@paysign/api/testing';
import { AuthenticationError } from '@paysign/sdk';
import type { AuthenticatorApp } from './support/authenticator-app';
import { describeWithChromium, launchChromium } from './support/chromium';
import { DashboardService, type OnboardedMerchant } from './support/dashboard-service';
import {
  acceptLink,
  addVirtualAuthenticator,
  continueToDashboard,
  enrolAuthenticatorApp,
  giveCode,
  pageHeading,
  reached,
  recordCspViolations,
  signInWithPassword,
  signOut,
} from './support/dashboard-steps';

describeWithChromium('the merchant dashboard in a real browser', () => {
  let service: DashboardService;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let merchant: OnboardedMerchant;
  // The owner's browser, one page for the whole suite: its virtual authenticator keeps the passkey.
  let ownerContext: BrowserContext;
  let owner: Page;
  let ownerApp: AuthenticatorApp;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    [service, receiver, browser] = await Promise.all([DashboardService.start({ WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0' }), WebhookReceiver.start(), launchChromium()]);
    merchant = await service.addMerchant('BROWSER');
    ownerContext = await newContext();
    owner = await ownerContext.newPage();
    await addVirtualAuthenticator(ownerContext, owner);
  }, 60_000);

  /** A browser of its own, at desktop width, whose CSP violations are recorded. */
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // A step that never comes fails at its own line, well inside the test's time.
    context.setDefaultTimeout(10_000);
    return recordCspViolations(context, cspViolations);
  };

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.close();
  });

  it('onboards the owner through the setup link: a password, an authenticator app, then home', async () => {
    await acceptLink(owner, merchant.setupUrl);
    ownerApp = await enrolAuthenticatorApp(owner, service);
    await continueToDashboard(owner);
    await owner.getByRole('heading', { name: 'Balances' }).waitFor();
    expect(await owner.getByRole('navigation', { name: 'Main' }).innerText()).toContain('API keys');
    expect(await owner.locator('header .who').innerText()).toBe(`${merchant.ownerEmail} (owner)`);
    // The setup link works once.
    const again = await newContext();
    const page = await again.newPage();
    await page.goto(merchant.setupUrl);
    await page.getByRole('alert').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(0);
    await again.close();
  });

  it('signs out, then signs in with the password and a code from the authenticator app', async () => {
    await signOut(owner, service);
    // Signed out, the app's pages send the browser to sign in.
    await owner.goto(service.url('keys'));
    await reached(owner, 'Sign in');
    await signInWithPassword(owner, service, merchant.ownerEmail);
    await owner.getByLabel('Authentication code').fill('000000');
    await owner.getByRole('button', { name: 'Verify code' }).click();
    await owner.getByRole('alert').waitFor();
    await giveCode(owner, ownerApp);
    await reached(owner, 'Home');
  });

  it('registers a passkey on the Security page, then signs in with the password and the passkey', async () => {
    await owner.goto(service.url('security'));
    await owner.getByLabel('Passkey name').fill('Test laptop');
    await owner.getByRole('button', { name: 'Add a passkey' }).click();
    await owner.getByRole('status').filter({ hasText: 'Passkey “Test laptop” is registered.' }).waitFor();
    await owner.getByRole('region', { name: 'Your passkeys' }).getByText('Test laptop').waitFor();
    await signOut(owner, service);
    await signInWithPassword(owner, service, merchant.ownerEmail);
    await owner.getByRole('button', { name: 'Use a passkey' }).click();
    await reached(owner, 'Home');
    expect(await pageHeading(owner).innerText()).toBe('Home');
  });

  /** Ticks the roles and creates a key; answers the key and the secret the dialog shows once. */
  async function createKey(page: Page, roles: string[]): Promise<{ apiKey: string; secretKey: string }> {
    await page.goto(service.url('keys'));
    for (const role of roles) await page.getByRole('checkbox', { name: new RegExp(`^${role} `) }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    return revealedKey(page);
  }

  /** Reads the key and its secret from the dialog that shows it once, then closes it. */
  async function revealedKey(page: Page): Promise<{ apiKey: string; secretKey: string }> {
    const dialog = page.getByRole('dialog', { name: /^Key pk_\w+ created$/ });
    const apiKey = ((await dialog.getByRole('heading').innerText()).match(/pk_\w+/) ?? [''])[0];
    const secretKey = await dialog.getByLabel('Secret key').inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    return { apiKey, secretKey };
  }

  /** Whether a request signed with the key is accepted: the SDK lists the banks, or is refused with 401. */
  async function verifies(key: { apiKey: string; secretKey: string }): Promise<boolean | number> {
    try {
      return (await service.sdk(merchant, key).banks.list()).length > 0;
    } catch (error) {
      if (error instanceof AuthenticationError) return error.status ?? 0;
      throw error;
    }
  }

  it('creates a key with roles and shows its secret once; rolls it with an hour of overlap, in which both verify; revokes the new one, which then gets 401', async () => {
    const first = await createKey(owner, ['payouts:create', 'refunds:create']);
    expect(first.secretKey).toMatch(/^sk_test_/);
    const row = owner.getByRole('row', { name: new RegExp(first.apiKey) });
    expect(await row.getByRole('cell').first().innerText()).toBe('payouts:create, refunds:create');
    // Once the dialog is closed, the secret is nowhere on the page, nor after a reload.
    expect(await owner.content()).not.toContain(first.secretKey);
    await owner.reload();
    await row.waitFor();
    expect(await owner.content()).not.toContain(first.secretKey);
    expect(await verifies(first)).toBe(true);

    await owner.getByRole('button', { name: `Roll key ${first.apiKey}` }).click();
    const roll = owner.getByRole('dialog', { name: `Roll key ${first.apiKey}` });
    await roll.getByLabel('Old key stops working').selectOption({ label: 'In 1 hour' });
    await roll.getByRole('button', { name: 'Roll key', exact: true }).click();
    const shown = owner.getByRole('dialog', { name: /^Key pk_\w+ created$/ });
    expect(await shown.innerText()).toContain('The old key stops working at');
    const second = await revealedKey(owner);
    expect(second.apiKey).not.toBe(first.apiKey);
    expect([await verifies(first), await verifies(second)]).toEqual([true, true]);

    await owner.getByRole('button', { name: `Revoke key ${second.apiKey}` }).click();
    const revoke = owner.getByRole('dialog', { name: `Revoke key ${second.apiKey}?` });
    await revoke.getByRole('button', { name: 'Revoke key', exact: true }).click();
    await revoke.waitFor({ state: 'detached' });
    await owner.getByRole('row', { name: new RegExp(second.apiKey) }).getByText('revoked').waitFor();
    expect([await verifies(second), await verifies(first)]).toEqual([401, true]);
  });

  it('asks for a factor again, in a dialog, once the last is older than the fresh-factor window, then creates the key', async () => {
    service.clock.advance((service.api.config.dashboard.freshFactorSeconds + 1) * 1000);
    await owner.goto(service.url('keys'));
    const keyRows = owner.getByRole('region', { name: 'API keys, newest first' }).getByRole('row');
    await keyRows.first().waitFor();
    const keysBefore = await keyRows.count();
    await owner.getByRole('checkbox', { name: /^webhooks:manage / }).check();
    await owner.getByRole('button', { name: 'Create key' }).click();
    const stepUp = owner.getByRole('dialog', { name: "Confirm it's you" });
    // Cancelled, the call is refused and says why; nothing is created.
    await stepUp.getByRole('button', { name: 'Cancel' }).click();
    await stepUp.waitFor({ state: 'detached' });
    expect(await owner.getByRole('alert').innerText()).toContain('Not done: this needs you to confirm it is you, with your passkey or an authentication code.');
    expect(await keyRows.count()).toBe(keysBefore);
    await owner.getByRole('button', { name: 'Create key' }).click();
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    const created = await revealedKey(owner);
    expect(await verifies(created)).toBe(true);
  });

  it('invites a viewer, who joins from the link in another browser and sees no way to change keys; made a developer, creates one', async () => {
    const email = `viewer-${Date.now()}@example.com`;
    await owner.goto(service.url('team'));
    const invite = owner.getByRole('region', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill(email);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const dialog = owner.getByRole('dialog', { name: `Invitation for ${email}` });
    const link = await dialog.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${service.url('welcome')}#[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('button', { name: 'Done' }).click();

    const inviteeContext = await newContext();
    const invitee = await inviteeContext.newPage();
    await acceptLink(invitee, link);
    expect(await invitee.locator('main').innerText()).not.toContain('Continue to the dashboard');
    await enrolAuthenticatorApp(invitee, service);
    await continueToDashboard(invitee);
    expect(await invitee.locator('header .who').innerText()).toBe(`${email} (viewer)`);
    await invitee.goto(service.url('keys'));
    await invitee.getByRole('region', { name: 'API keys, newest first' }).waitFor();
    // At desktop width the phone's Menu button is hidden: no button at all is left.
    expect(await invitee.getByRole('button').allInnerTexts()).toEqual([]);
    expect(await invitee.getByRole('checkbox').count()).toBe(0);
    expect(await invitee.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);

    await owner.goto(service.url('team'));
    await owner.getByLabel(`Role of ${email}`).selectOption('developer');
    await owner.getByRole('button', { name: `Save role of ${email}` }).click();
    await owner.getByRole('row', { name: new RegExp(email) }).getByRole('button', { name: `Save role of ${email}` }).and(owner.locator(':disabled')).waitFor();

    await invitee.reload();
    await invitee.locator('header .who').filter({ hasText: `${email} (developer)` }).waitFor();
    const created = await createKey(invitee, ['refunds:create']);
    expect(await verifies(created)).toBe(true);
    await inviteeContext.close();
  });

  it('shows a test event failing with 500 in the endpoint\'s deliveries, resends it, and shows it delivered', async () => {
    receiver.answer(() => ({ status: 500, body: 'down for maintenance' }));
    await owner.goto(service.url('webhook-endpoints'));
    await owner.getByLabel('Endpoint URL').fill(receiver.url);
    await owner.getByLabel('Events').fill('payin.successful, payout.successful');
    await owner.getByLabel('Description (optional)').fill('Orders');
    await owner.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = owner.getByRole('dialog', { name: 'Endpoint created' });
    expect(await secret.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: 'Done' }).click();

    await owner.getByRole('link', { name: receiver.url }).click();
    await reached(owner, `Endpoint ${receiver.url}`);
    await owner.getByRole('button', { name: 'Send test event' }).click();
    const queued = await owner.getByRole('status').filter({ hasText: /^Test event \S+ queued\.$/ }).innerText();
    const eventId = queued.split(' ')[2] ?? '';
    const delivery = owner.getByRole('article', { name: new RegExp(eventId) });
    await untilOutcome(delivery, 'failed');
    const failedAttempts = delivery.getByRole('region', { name: `Attempts to deliver ${eventId}` });
    expect(await failedAttempts.getByRole('row').nth(1).innerText()).toMatch(/^1\t.*\t500\t.*down for maintenance/);

    receiver.answer(() => ({ status: 200, body: 'ok' }));
    await owner.getByRole('button', { name: `Resend ${eventId}` }).click();
    await delivery.getByRole('status').filter({ hasText: 'Queued again.' }).waitFor();
    await untilOutcome(delivery, 'delivered');
    expect(await failedAttempts.getByRole('row').last().innerText()).toMatch(/\t200\t/);
    expect(receiver.received.filter((d) => d.headers['webhook-id'] === eventId).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an approval whose passkey signed a tampered challenge, leaving the payout waiting; approves it with the passkey over the challenge issued', async () => {
    const reference = await service.payoutAwaitingApproval(merchant, 1500);
    const sdk = service.sdk(merchant, merchant);
    await owner.goto(service.url('approvals'));
    const row = owner.getByRole('row', { name: new RegExp(reference) });
    expect(await row.innerText()).toMatch(/₦1,500\.00.*058\/0123456785/s);

    // The page gets the options with one character of the challenge changed: the authenticator signs that instead.
    const optionsUrl = `**/payment/dashboard/api/approvals/payout/${reference}/options`;
    await owner.route(optionsUrl, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { options: { challenge: string } };
      const { challenge } = body.options;
      body.options.challenge = `${challenge.startsWith('A') ? 'B' : 'A'}${challenge.slice(1)}`;
      await route.fulfill({ response, json: body });
    });
    await row.getByRole('button', { name: `Approve payout ${reference}` }).click();
    const dialog = owner.getByRole('dialog', { name: `Approve payout ${reference}` });
    expect(await dialog.locator('dl').innerText()).toMatch(new RegExp(`Kind\\s+payout\\s+Reference\\s+${reference}\\s+Amount\\s+₦1,500\\.00\\s+Currency\\s+NGN\\s+Destination\\s+058/0123456785 .+\\s+Count\\s+1`));
    const answered = owner.waitForResponse((response) => response.url().endsWith(`/approvals/payout/${reference}`) && response.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Approve with passkey' }).click();
    const refusal = await answered;
    expect([refusal.status(), ((await refusal.json()) as { code: string }).code]).toEqual([401, 'DASHBOARD_SIGN_IN_FAILED']);
    await dialog.getByRole('alert').waitFor();
    expect((await sdk.payouts.get(reference)).status).toBe('PENDING_APPROVAL');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await owner.unroute(optionsUrl);

    // The same payout, the challenge as the service issued it: approved.
    await row.getByRole('button', { name: `Approve payout ${reference}` }).click();
    await dialog.getByRole('button', { name: 'Approve with passkey' }).click();
    await dialog.getByRole('status').filter({ hasText: `Approved: payout ${reference} is QUEUED.` }).waitFor();
    expect(await sdk.payouts.get(reference)).toMatchObject({ approval: { status: 'approved', decidedBy: `dashboard:${merchant.ownerEmail}` } });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('loads every page under its strict CSP, which nothing on them breaks', async () => {
    for (const route of ['', 'keys', 'webhook-endpoints', 'team', 'security-log', 'approvals', 'security']) {
      const response = await owner.goto(service.url(route));
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await pageHeading(owner).waitFor();
    }
    expect(cspViolations).toEqual([]);
    // The check sees a violation when there is one: an inline script, which the policy refuses.
    const refused = owner.waitForEvent('console', { predicate: (message) => message.text().includes('Content Security Policy') });
    await owner.evaluate("document.head.append(Object.assign(document.createElement('script'), { textContent: 'void 0' }))");
    await refused;
    expect(cspViolations).toHaveLength(1);
    expect(cspViolations[0]).toContain("script-src 'self'");
  });
});

/** Waits until the delivery shows `outcome`: the deliveries list reads itself again while one is pending or failing, so no reload is needed. */
async function untilOutcome(delivery: Locator, outcome: string, timeoutMs = 15_000): Promise<void> {
  await delivery.locator('.badge', { hasText: new RegExp(`^${outcome}$`) }).waitFor({ timeout: timeoutMs });
}
