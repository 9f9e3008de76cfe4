import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../src/dashboard/dashboard-roles';
import { merchantAdmin } from './merchant-changes';
import { DashboardClient, linkToken, totpCode } from './dashboard-client';
import type { TestApp } from './test-app';
import type { TestClock } from './test-clock';

export const DASHBOARD_PASSWORD = 'correct horse battery staple';
const STEP_MS = 30_000;

/** A signed-in member: their browser, email and TOTP secret. */
export interface SignedInMember {
  browser: DashboardClient;
  email: string;
  secret: string;
}

/** Sets a password through a link and confirms a TOTP secret: the member is signed in, with a fresh factor. */
export async function acceptLink(api: TestApp, clock: TestClock, url: string): Promise<SignedInMember> {
  const browser = new DashboardClient(api.baseUrl);
  const token = linkToken(url);
  const { email } = (await browser.call('POST', '/links/lookup', { token })).json as { email: string };
  await browser.call('POST', '/links/accept', { token, password: DASHBOARD_PASSWORD });
  const secret = String((await browser.call('POST', '/factors/totp')).json.secret);
  clock.advance(STEP_MS);
  const confirmed = await browser.call('POST', '/factors/totp/confirm', { code: await totpCode(secret, clock.now()) });
  if (confirmed.json.stage !== 'active') throw new Error(`enrolment failed: ${confirmed.text}`);
  return { browser, email, secret };
}

/** A new merchant, added as the operator adds one, with its owner signed in, and the key the add printed. */
export async function merchantWithOwner(api: TestApp, clock: TestClock, label: string) {
  const merchantId = `MCH-${label}-${randomUUID().slice(0, 6)}`;
  const email = `${label.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`;
  const added = await merchantAdmin(api).run((admin) => admin.add({ merchantId, tenantId: `TEN-${label}`, name: `${label} Shop`, owner: { email, origin: api.baseUrl, ttlSeconds: 3600 } }));
  const owner = await acceptLink(api, clock, added.owner?.setupUrl ?? '');
  return { merchantId, owner, key: { apiKey: added.apiKey, secretKey: added.secretKey, merchantId, tenantId: added.tenantId } };
}

/** Invites `role` from the inviter's browser and signs the new member in. */
export async function invited(api: TestApp, clock: TestClock, inviter: DashboardClient, role: MemberRole): Promise<SignedInMember> {
  const invitation = await inviter.call('POST', '/invitations', { email: `${role}-${randomUUID().slice(0, 8)}@example.com`, role });
  if (invitation.status !== 201) throw new Error(`invitation refused: ${invitation.text}`);
  return acceptLink(api, clock, String(invitation.json.url));
}
