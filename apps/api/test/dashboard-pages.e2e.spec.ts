// The dashboard's pages over HTTP on the real app and PostgreSQL: the
// merchant's keys (a rolled key verifies until its overlap ends), webhook
// endpoints with their delivery log, resend and test event, the team's
// rules, the security log and its CSV, merchant isolation, and every route
// of the contract walked with every role.
import { parse } from 'yaml';
import * as fs from 'node:fs';
import { DASHBOARD_CONTRACT_PATH } from '@paysign/contracts/testing';
import { MEMBER_ROLES, type MemberRole } from '../src/dashboard/dashboard-roles';
import { signedCall } from './support/api-client';
import { totpCode, type DashboardClient } from './support/dashboard-client';
import { invited, merchantWithOwner, type SignedInMember } from './support/dashboard-team';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';
import { WebhookReceiver } from './support/webhook-receiver';

type Operation = { 'x-roles'?: string[]; 'x-fresh-factor'?: boolean };
const CONTRACT = parse(fs.readFileSync(DASHBOARD_CONTRACT_PATH, 'utf8')) as { paths: Record<string, Record<string, Operation>> };

/** A path of the contract with each parameter filled with a value its pattern takes, naming nothing that exists. */
const concrete = (template: string): string =>
  template.replace('{token}', 'A'.repeat(43)).replace('{apiKey}', 'pk_test_000000000000000000000000').replace('{id}', `we_${'A'.repeat(22)}`).replace('{eventId}', 'evt_none').replace('{memberId}', `mem_${'A'.repeat(24)}`).replace('{kind}', 'payout').replace('{reference}', 'none-such');

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard pages', () => {
  let api: TestApp;
  let receiver: WebhookReceiver;
  const clock = new TestClock();
  let shop: Awaited<ReturnType<typeof merchantWithOwner>>;
  let owner: DashboardClient;
  const members = new Map<MemberRole, SignedInMember>();
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    api = await startTestApp({ WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0', RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE: '3' }, { overrides: { clock: clock.now } });
    shop = await merchantWithOwner(api, clock, 'PAGES');
    owner = shop.owner.browser;
    members.set('owner', shop.owner);
    for (const role of MEMBER_ROLES.filter((r) => r !== 'owner')) members.set(role, await invited(api, clock, owner, role));
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('walks every operation of the contract with every role: exactly the roles x-roles names get past the role check', async () => {
    let walked = 0;
    for (const [template, operations] of Object.entries(CONTRACT.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const roles = operation['x-roles'];
        if (!roles || roles.includes('any') || roles.includes('none')) continue;
        for (const role of MEMBER_ROLES) {
          const browser = (members.get(role) as SignedInMember).browser;
          // A body no operation takes: admitted roles stop at validation or at a missing object, never at the role check.
          const answer = await browser.call(method.toUpperCase(), concrete(template), method === 'get' || method === 'delete' ? undefined : { unknownField: true });
          const refusedByRole = answer.status === 403 && answer.json.code === 'DASHBOARD_ROLE_FORBIDDEN';
          expect({ route: `${method} ${template}`, role, refusedByRole }).toEqual({ route: `${method} ${template}`, role, refusedByRole: !roles.includes(role) });
          walked += 1;
        }
      }
    }
    expect(walked).toBeGreaterThanOrEqual(20 * MEMBER_ROLES.length);
  });

  it('creates a key with chosen roles, rolls it with an overlap in which the old key still verifies, and revokes it', async () => {
    const created = await owner.call('POST', '/keys', { roles: ['payouts:create'] });
    expect(created.status).toBe(201);
    const first = { apiKey: String(created.json.apiKey), secretKey: String(created.json.secretKey), merchantId: shop.merchantId, tenantId: shop.key.tenantId };
    expect((await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: first })).status).toBe(200);
    const listed = (await owner.call('GET', '/keys')).json.data as Array<Record<string, unknown>>;
    expect(listed.find((k) => k.apiKey === first.apiKey)).toMatchObject({ roles: ['payouts:create'], status: 'active' });
    expect(JSON.stringify(listed)).not.toContain(first.secretKey);
    const rolled = await owner.call('POST', `/keys/${first.apiKey}/roll`, { oldKeyExpiresIn: '1h' });
    expect(rolled.status).toBe(201);
    const second = { ...first, apiKey: String(rolled.json.apiKey), secretKey: String(rolled.json.secretKey) };
    expect((await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: first })).status).toBe(200);
    expect((await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: second })).status).toBe(200);
    const revoked = await owner.call('POST', `/keys/${second.apiKey}/revoke`);
    expect(revoked.json.status).toBe('revoked');
    expect((await signedCall(api.baseUrl, { path: '/payment/merchant-api/banks', credential: second })).status).toBe(401);
    expect((await owner.call('POST', `/keys/${second.apiKey}/revoke`)).json.code).toBe('DASHBOARD_CONFLICT');
  });

  it('lets only an owner or admin make a key that approves payouts, and never one that also creates them', async () => {
    const developer = members.get('developer') as SignedInMember;
    const refused = await developer.browser.call('POST', '/keys', { roles: ['payouts:approve'] });
    expect(refused.json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    expect((await owner.call('POST', '/keys', { roles: ['payouts:create', 'payouts:approve'] })).json.code).toBe('DASHBOARD_CONFLICT');
    const approving = await owner.call('POST', '/keys', { roles: ['payouts:approve'] });
    expect(approving.status).toBe(201);
    // Rolling it is an owner's or admin's too.
    expect((await developer.browser.call('POST', `/keys/${String(approving.json.apiKey)}/roll`, { oldKeyExpiresIn: 'now' })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
  });

  it('asks for a fresh second factor to reveal a secret once the last one is older than DASHBOARD_FRESH_FACTOR_SECONDS', async () => {
    const developer = members.get('developer') as SignedInMember;
    clock.advance((api.config.dashboard.freshFactorSeconds + 1) * 1000);
    expect((await developer.browser.call('POST', '/keys', { roles: ['refunds:create'] })).json.code).toBe('DASHBOARD_FRESH_FACTOR_REQUIRED');
    clock.advance(30_000);
    expect((await developer.browser.call('POST', '/sign-in/totp', { code: await totpCode(developer.secret, clock.now()) })).status).toBe(200);
    expect((await developer.browser.call('POST', '/keys', { roles: ['refunds:create'] })).status).toBe(201);
    // Reading needs none.
    expect((await developer.browser.call('GET', '/keys')).status).toBe(200);
  });

  it('creates an endpoint, sends it a test event, shows each attempt, and resends', async () => {
    receiver.answer(() => ({ status: 500, body: 'down for maintenance' }));
    const created = await owner.call('POST', '/webhook-endpoints', { url: receiver.url, enabledEvents: ['payin.successful'], description: 'Orders' });
    expect(created.status).toBe(201);
    expect(String(created.json.secret)).toMatch(/^whsec_/);
    const id = String(created.json.id);
    const test = await owner.call('POST', `/webhook-endpoints/${id}/test`);
    expect(test.json).toMatchObject({ eventType: 'webhook_endpoint.test', outcome: 'pending' });
    const eventId = String(test.json.eventId);
    const failed = await waitForOutcome(owner, id, eventId, 'failed');
    expect((failed.attempts as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect(failed.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 500, responseExcerpt: 'down for maintenance' })]);
    receiver.answer(() => ({ status: 200, body: 'ok' }));
    expect((await owner.call('POST', `/webhook-endpoints/${id}/deliveries/${eventId}/resend`)).status).toBe(202);
    const delivered = await waitForOutcome(owner, id, eventId, 'delivered');
    expect((delivered.attempts as Array<{ statusCode: number }>).at(-1)?.statusCode).toBe(200);
    const filtered = await owner.call('GET', `/webhook-endpoints/${id}/deliveries?outcome=failed`);
    expect((filtered.json.data as unknown[]).length).toBe(0);
    expect((await owner.call('GET', `/webhook-endpoints/${id}/deliveries?eventType=payin.successful`)).json.data).toEqual([]);
    const disabled = await owner.call('PATCH', `/webhook-endpoints/${id}`, { enabled: false });
    expect(disabled.json.enabled).toBe(false);
    expect((await owner.call('POST', `/webhook-endpoints/${id}/test`)).json.code).toBe('DASHBOARD_CONFLICT');
  });

  it('keeps the team rules: nobody changes their own role, an admin makes no owner, the last owner stays', async () => {
    const admin = members.get('admin') as SignedInMember;
    const team = (await owner.call('GET', '/members')).json.members as Array<{ id: string; email: string; role: string }>;
    const idOf = (email: string) => team.find((m) => m.email === email)?.id ?? '';
    const ownerId = idOf(shop.owner.email);
    expect((await admin.browser.call('PATCH', `/members/${idOf(admin.email)}`, { role: 'owner' })).json.code).toBe('DASHBOARD_CONFLICT');
    expect((await admin.browser.call('PATCH', `/members/${idOf((members.get('viewer') as SignedInMember).email)}`, { role: 'owner' })).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    expect((await admin.browser.call('DELETE', `/members/${ownerId}`)).json.code).toBe('DASHBOARD_ROLE_FORBIDDEN');
    expect((await owner.call('DELETE', `/members/${ownerId}`)).json.code).toBe('DASHBOARD_CONFLICT');
    const approver = members.get('approver') as SignedInMember;
    expect((await owner.call('PATCH', `/members/${idOf(approver.email)}`, { role: 'operations' })).json.role).toBe('operations');
    expect((await owner.call('DELETE', `/members/${idOf(approver.email)}`)).status).toBe(204);
    expect((await approver.browser.call('GET', '/session')).status).toBe(401);
    members.delete('approver');
  });

  it('keeps merchants apart: a member of another merchant finds none of this one\'s objects', async () => {
    const other = await merchantWithOwner(api, clock, 'OTHER');
    const endpoints = (await owner.call('GET', '/webhook-endpoints')).json.data as Array<{ id: string }>;
    const someone = ((await owner.call('GET', '/members')).json.members as Array<{ id: string }>)[1]?.id ?? '';
    expect((await other.owner.browser.call('POST', `/keys/${shop.key.apiKey}/revoke`)).status).toBe(404);
    expect((await other.owner.browser.call('GET', `/webhook-endpoints/${endpoints[0]?.id ?? ''}/deliveries`)).status).toBe(404);
    expect((await other.owner.browser.call('PATCH', `/webhook-endpoints/${endpoints[0]?.id ?? ''}`, { enabled: true })).status).toBe(404);
    expect((await other.owner.browser.call('PATCH', `/members/${someone}`, { role: 'viewer' })).status).toBe(404);
    // Inviting this team's owner tells the other team nothing: the invitation is made, and would fail when used.
    expect((await other.owner.browser.call('POST', '/invitations', { email: shop.owner.email, role: 'viewer' })).status).toBe(201);
    expect((await owner.call('POST', '/invitations', { email: shop.owner.email, role: 'viewer' })).json.code).toBe('DASHBOARD_CONFLICT');
    expect(((await other.owner.browser.call('GET', '/keys')).json.data as unknown[]).length).toBe(1);
  });

  it('logs every action with who, what and from where, and exports it as CSV', async () => {
    const entries: Array<{ id: number; action: string; actor: string; channel: string; address: string | null }> = [];
    for (let before: number | undefined; ; ) {
      const page = await owner.call('GET', `/security-log${before ? `?before=${before}` : ''}`);
      entries.push(...(page.json.data as typeof entries));
      if (!page.json.hasMore) break;
      before = entries.at(-1)?.id;
    }
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['add', 'member.setup', 'sign-in', 'member.invited', 'add-key', 'roll-key', 'revoke-key', 'webhook-endpoint.create', 'member.removed']));
    expect(entries.find((e) => e.action === 'add')).toMatchObject({ actor: 'test', channel: 'command' });
    expect(entries.find((e) => e.action === 'roll-key')).toMatchObject({ actor: shop.owner.email, channel: 'dashboard', address: '127.0.0.1' });
    // A cursor past any id the table can hold is a malformed query, not a failure.
    expect((await owner.call('GET', '/security-log?before=99999999999999999999')).status).toBe(400);
    const csv = await owner.call('GET', '/security-log.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('id,at,actor,channel,action,subject,address,detail');
    expect(lines.some((line) => line.includes(',dashboard,roll-key,') && line.includes(shop.owner.email))).toBe(true);
    expect(csv.text).not.toContain('sk_test_');
  });
  it('enquires an account as the merchant API does, with the plain error body and a per-member limit', async () => {
    const operations = members.get('operations') as SignedInMember;
    const banks = (await operations.browser.call('GET', '/banks')).json as unknown as Array<{ code: string }>;
    expect(banks.map((b) => b.code)).toContain('058');
    const found = await operations.browser.call('POST', '/account-enquiries', { bankCode: '058', accountNumber: '0123456785' });
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ accountName: 'ADAEZE NWOSU', bankCode: '058', accountNumber: '0123456785', enquiryId: expect.stringMatching(/^enq_/) });
    const badDigit = await operations.browser.call('POST', '/account-enquiries', { bankCode: '058', accountNumber: '0123456789' });
    expect(badDigit.status).toBe(422);
    expect(badDigit.json).toMatchObject({ code: 'NUBAN_CHECK_FAILED' });
    expect(badDigit.json).not.toHaveProperty('success');
    const unknownBank = await operations.browser.call('POST', '/account-enquiries', { bankCode: '000', accountNumber: '0123456785', extra: 1 });
    expect(unknownBank.status).toBe(400);
    expect((unknownBank.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['bankCode', 'extra']);
    // The suite allows 3 a minute: the found and the failed enquiry counted, the malformed one did not; one more passes, then 429.
    expect((await operations.browser.call('POST', '/account-enquiries', { bankCode: '044', accountNumber: '0001112221' })).json).toMatchObject({ accountName: 'CHINEDU OKAFOR' });
    const limited = await operations.browser.call('POST', '/account-enquiries', { bankCode: '058', accountNumber: '0123456785' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    expect(limited.json.message).toContain('dashboard member');
    // Another member's allowance is their own.
    expect((await owner.call('POST', '/account-enquiries', { bankCode: '058', accountNumber: '0123456785' })).status).toBe(200);
  });
});

/** Reads the delivery log until the event has `outcome`: the dispatcher's attempt is the event waited on. */
async function waitForOutcome(browser: DashboardClient, endpointId: string, eventId: string, outcome: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const page = await browser.call('GET', `/webhook-endpoints/${endpointId}/deliveries`);
    found = (page.json.data as Array<Record<string, unknown>>).find((d) => d.eventId === eventId);
    if (found?.outcome === outcome) return found;
  }
  throw new Error(`event ${eventId} is ${String(found?.outcome)}, not ${outcome}, after ${timeoutMs} ms`);
}
