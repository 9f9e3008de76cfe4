import { DashboardClient, linkToken } from '@paysign/api/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { AuthenticatorApp } from './authenticator-app';
import type { DashboardService } from './dashboard-service';

/** Every member's password in the browser suites: 12 characters or more, as the welcome page asks. */
export const PASSWORD = 'correct horse battery staple';

/** The page's h1, which every dashboard page has exactly one of. */
export const pageHeading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Waits until the page shown is the one titled `title`. */
export async function reached(page: Page, title: string | RegExp): Promise<void> {
  await pageHeading(page).filter({ hasText: title }).waitFor();
}

/** Opens a setup or invitation link and sets the password: the page moves on to enrolment. */
export async function acceptLink(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await reached(page, 'Add a second factor');
}

/** Sets up an authenticator app from the secret the page shows, and confirms it with a code. */
export async function enrolAuthenticatorApp(page: Page, service: DashboardService): Promise<AuthenticatorApp> {
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = await page.getByLabel('Secret key (base32)').inputValue();
  if (!/^[A-Z2-7]{16,}$/.test(secret)) throw new Error(`the page shows no base32 secret: "${secret}"`);
  const app = new AuthenticatorApp(secret, service.clock);
  await page.getByLabel('Code from the app').fill(app.nextCode());
  await page.getByRole('button', { name: 'Confirm code' }).click();
  await page.getByRole('status').filter({ hasText: 'Your authenticator app is set up.' }).waitFor();
  return app;
}

/** From the enrolment page, once a factor is active, to home. */
export async function continueToDashboard(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
  await reached(page, 'Home');
}

/** Email and password: the page then asks for the second factor. */
export async function signInWithPassword(page: Page, service: DashboardService, email: string): Promise<void> {
  await page.goto(service.url('sign-in'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await reached(page, "Confirm it's you");
}

/** Types the authenticator app's next code where the page (or the dialog) asks for one. */
export async function giveCode(scope: Page | ReturnType<Page['getByRole']>, app: AuthenticatorApp): Promise<void> {
  await scope.getByLabel('Authentication code').fill(app.nextCode());
  await scope.getByRole('button', { name: 'Verify code' }).click();
}

/** Signs out from the Security page: the page goes back to the sign-in form. */
export async function signOut(page: Page, service: DashboardService): Promise<void> {
  await page.goto(service.url('security'));
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await reached(page, 'Sign in');
}

/**
 * Gives the page a platform authenticator that verifies its user and answers
 * at once, through chromium's WebAuthn domain: passkeys without a person.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** Adds every CSP violation the context's pages log to `violations`: the dashboard must cause none. */
export function recordCspViolations(context: BrowserContext, violations: string[]): BrowserContext {
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(`${message.location().url}: ${message.text()}`);
  });
  return context;
}

/** A teammate joins from a setup or invitation link outside the browser: a password and an authenticator app, as the API takes them; answers their signed-in client. */
export async function joinByLink(service: DashboardService, url: string): Promise<DashboardClient> {
  const teammate = new DashboardClient(service.api.baseUrl);
  await teammate.call('POST', '/links/accept', { token: linkToken(url), password: PASSWORD });
  const { secret } = (await teammate.call('POST', '/factors/totp')).json as { secret: string };
  const confirmed = await teammate.call('POST', '/factors/totp/confirm', { code: new AuthenticatorApp(secret, service.clock).nextCode() });
  if (confirmed.json.stage !== 'active') throw new Error(`the teammate did not join: ${confirmed.text}`);
  return teammate;
}
