// The dashboard's sign-in on the real app over HTTP, on PostgreSQL: the
// owner's setup link from `merchants add --owner-email`, TOTP enrolment,
// password and second factor, the CSRF token, session fixation and reuse
// after sign-out, the idle timeout, and the lockout a victim's own browser
// gets past. Every answer is checked against openapi/dashboard-api.yaml.
import { randomUUID } from 'node:crypto';
import { MerchantStore } from '../src/merchants/merchant-store';
import { ServiceMetrics } from '../src/metrics/service-metrics';
import { merchantAdmin } from './support/merchant-changes';
import { DashboardClient, linkToken, totpCode } from './support/dashboard-client';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

const PASSWORD = 'correct horse battery staple';
const STEP_MS = 30_000;

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard sign-in', () => {
  let api: TestApp;
  // From now: the operator's commands in these tests stamp links by the real clock, the service by this one.
  const clock = new TestClock();
  beforeAll(async () => {
    api = await startTestApp({ TRUST_PROXY: 'true', DASHBOARD_SIGN_IN_MAX_FAILURES: '3', DASHBOARD_LOCKOUT_SECONDS: '600', DASHBOARD_ADDRESS_FAILURES_PER_HOUR: '8' }, { overrides: { clock: clock.now } });
  });
  afterAll(() => api.close());

  /** A merchant added as the operator adds one, with its owner's setup link; the owner sets a password and a TOTP secret. */
  async function onboardedOwner(label: string): Promise<{ browser: DashboardClient; email: string; secret: string; merchantId: string }> {
    const merchantId = `MCH-${label}-${randomUUID().slice(0, 6)}`;
    const email = `${label.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`;
    // A day: the suite's clock runs ahead of the real one, which the operator's command stamps links by.
    const added = await merchantAdmin(api).run((admin) => admin.add({ merchantId, tenantId: `TEN-${label}`, name: `${label} Shop`, owner: { email, origin: api.baseUrl, ttlSeconds: 86_400 } }));
    const browser = new DashboardClient(api.baseUrl, { address: `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
    const token = linkToken(added.owner?.setupUrl ?? '');
    const link = await browser.call('POST', '/links/lookup', { token });
    expect(link.json).toMatchObject({ kind: 'setup', email, role: 'owner', merchantName: `${label} Shop` });
    const accepted = await browser.call('POST', '/links/accept', { token, password: PASSWORD });
    expect(accepted.json.stage).toBe('enrol');
    const enrolment = await browser.call('POST', '/factors/totp');
    const secret = String(enrolment.json.secret);
    expect(String(enrolment.json.otpauthUrl)).toMatch(/^otpauth:\/\/totp\//);
    clock.advance(STEP_MS);
    const confirmed = await browser.call('POST', '/factors/totp/confirm', { code: await totpCode(secret, clock.now()) });
    expect(confirmed.json).toMatchObject({ stage: 'active', factors: { totp: true, passkeys: 0 } });
    return { browser, email, secret, merchantId };
  }

  it('onboards an owner through a one-time setup link, which then no longer works', async () => {
    const merchantId = `MCH-SETUP-${randomUUID().slice(0, 6)}`;
    const added = await merchantAdmin(api).run((admin) => admin.add({ merchantId, tenantId: 'TEN-SETUP', name: 'Setup Shop', owner: { email: 'owner@setup.example', origin: api.baseUrl, ttlSeconds: 3600 } }));
    expect(added.owner?.setupUrl).toMatch(new RegExp(`^${api.baseUrl}/payment/dashboard/welcome#[A-Za-z0-9_-]{43}$`));
    const token = linkToken(added.owner?.setupUrl ?? '');
    const browser = new DashboardClient(api.baseUrl);
    const short = await browser.call('POST', '/links/accept', { token, password: 'too short' });
    expect(short.status).toBe(400);
    expect(short.json.message).toContain('at least 12 characters');
    expect((await browser.call('POST', '/links/accept', { token, password: PASSWORD })).status).toBe(200);
    // At stage enrol nothing but the factors is reachable.
    expect((await browser.call('GET', '/overview')).json.code).toBe('DASHBOARD_STAGE_REFUSED');
    const again = new DashboardClient(api.baseUrl);
    expect((await again.call('POST', '/links/lookup', { token })).json.code).toBe('DASHBOARD_LINK_INVALID');
    expect((await again.call('POST', '/links/accept', { token, password: PASSWORD })).json.code).toBe('DASHBOARD_LINK_INVALID');
    const expired = await merchantAdmin(api).run((admin) => admin.setupLink(merchantId, { email: 'second@setup.example', origin: api.baseUrl, ttlSeconds: 300 }));
    // Past its 300 s, however far the test's clock lagged the real one while the app started.
    clock.advance(Math.max(0, Date.now() - clock.now()) + 301_000);
    expect((await again.call('POST', '/links/lookup', { token: linkToken(expired.setupUrl) })).status).toBe(404);
  });

  it('signs in with a password, then a TOTP code, which works once', async () => {
    const { email, secret, merchantId } = await onboardedOwner('TOTP');
    // The operator sees the team in merchants show, never a secret of it.
    const shown = await merchantAdmin(api).run((admin) => admin.show(merchantId));
    expect(shown.members).toEqual([{ email, role: 'owner', totp: true, passkeys: 0, createdAt: expect.any(String) }]);
    expect(JSON.stringify(shown)).not.toContain(secret);
    const browser = new DashboardClient(api.baseUrl);
    const password = await browser.call('POST', '/sign-in', { email, password: PASSWORD });
    expect(password.json).toMatchObject({ stage: 'second_factor', factors: { totp: true } });
    expect((await browser.call('GET', '/overview')).json.code).toBe('DASHBOARD_STAGE_REFUSED');
    clock.advance(STEP_MS);
    const code = await totpCode(secret, clock.now());
    expect((await browser.call('POST', '/sign-in/totp', { code: code === '000000' ? '111111' : '000000' })).json.code).toBe('DASHBOARD_SIGN_IN_FAILED');
    const signedIn = await browser.call('POST', '/sign-in/totp', { code });
    expect(signedIn.json.stage).toBe('active');
    expect((await browser.call('GET', '/overview')).status).toBe(200);
    // The same code again, from another sign-in, is refused: a code seen over a shoulder is spent.
    const other = new DashboardClient(api.baseUrl);
    await other.call('POST', '/sign-in', { email, password: PASSWORD });
    expect((await other.call('POST', '/sign-in/totp', { code })).json.code).toBe('DASHBOARD_SIGN_IN_FAILED');
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const { email } = await onboardedOwner('WRONG');
    const browser = new DashboardClient(api.baseUrl);
    const wrong = await browser.call('POST', '/sign-in', { email, password: 'not the password at all' });
    const unknown = await browser.call('POST', '/sign-in', { email: `nobody-${randomUUID().slice(0, 6)}@example.com`, password: PASSWORD });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.json.message).toBe(unknown.json.message);
    const counted = await api.app.get(ServiceMetrics).registry.metrics();
    expect(counted).toMatch(/paysign_dashboard_sign_ins_total\{step="password",outcome="failed"\} [1-9]/);
    const malformed = await browser.call('POST', '/sign-in', { email: 'not an email', password: PASSWORD, extra: 1 });
    expect(malformed.status).toBe(400);
    expect((malformed.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['email', 'extra']);
    expect((await browser.call('POST', '/sign-in', '[1,2]')).json.code).toBe('BODY_NOT_OBJECT');
    expect((await browser.call('POST', '/sign-in', '{"email":')).json.code).toBe('INVALID_JSON');
  });

  it('refuses a write without the session CSRF token, and a session from before sign-in is not the one after', async () => {
    const { browser, email, secret } = await onboardedOwner('CSRF');
    expect((await browser.call('POST', '/sign-out-everywhere', undefined, { csrf: null })).json.code).toBe('DASHBOARD_CSRF_REFUSED');
    expect((await browser.call('POST', '/sign-out-everywhere', undefined, { csrf: 'x'.repeat(43) })).json.code).toBe('DASHBOARD_CSRF_REFUSED');
    const before = browser.cookies.get('paysign_session');
    await browser.call('POST', '/sign-in', { email, password: PASSWORD });
    const after = browser.cookies.get('paysign_session');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // The session the browser held before signing in again was ended, not carried over.
    const stale = new DashboardClient(api.baseUrl);
    stale.cookies.set('paysign_session', before ?? '');
    expect((await stale.call('GET', '/session')).status).toBe(401);
    clock.advance(STEP_MS);
    await browser.call('POST', '/sign-in/totp', { code: await totpCode(secret, clock.now()) });
    const cookie = browser.cookies.get('paysign_session');
    expect((await browser.call('POST', '/sign-out')).status).toBe(204);
    const reused = new DashboardClient(api.baseUrl);
    reused.cookies.set('paysign_session', cookie ?? '');
    expect((await reused.call('GET', '/session')).json.code).toBe('DASHBOARD_UNAUTHENTICATED');
  });

  it('is never accepted by the merchant API: a session cookie alone gets the signed routes\' 401', async () => {
    const { browser } = await onboardedOwner('NOKEY');
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await fetch(`${api.baseUrl}/payment/api/balance?currency=NGN`, { headers: { cookie, 'x-csrf-token': browser.csrf ?? '' } });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { code: string }).code).toBe('AUTH_HEADER_MISSING');
  });

  it('sets the session cookie HttpOnly and SameSite=Strict, and ends an idle session', async () => {
    const { browser, email } = await onboardedOwner('IDLE');
    const answer = await fetch(`${api.baseUrl}/payment/dashboard/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('paysign_session=')) ?? '';
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect((await browser.call('GET', '/session')).status).toBe(200);
    clock.advance((api.config.dashboard.sessionIdleSeconds + 1) * 1000);
    expect((await browser.call('GET', '/session')).status).toBe(401);
  });

  it('locks an account after failures in a row, except for a browser that signed in to it before', async () => {
    const { browser: own, email, secret } = await onboardedOwner('LOCK');
    const attacker = new DashboardClient(api.baseUrl, { address: '203.0.113.7' });
    for (let i = 0; i < 3; i += 1) expect((await attacker.call('POST', '/sign-in', { email, password: `guess ${i} of many` })).status).toBe(401);
    const locked = await attacker.call('POST', '/sign-in', { email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('DASHBOARD_SIGN_IN_LIMITED');
    expect(Number(locked.headers.get('retry-after') ?? 0)).toBeGreaterThan(0);
    // The owner's browser completed a sign-in before: its device cookie gets it past the lock.
    expect((await own.call('POST', '/sign-in', { email, password: PASSWORD })).json.stage).toBe('second_factor');
    clock.advance(STEP_MS);
    expect((await own.call('POST', '/sign-in/totp', { code: await totpCode(secret, clock.now()) })).json.stage).toBe('active');
    clock.advance(601_000);
    expect((await attacker.call('POST', '/sign-in', { email, password: PASSWORD })).status).toBe(200);
  });

  it('counts concurrent guesses before checking them: no more wrong codes are checked than the lockout allows', async () => {
    const { email } = await onboardedOwner('RACE');
    const guesser = new DashboardClient(api.baseUrl, { address: '203.0.113.44' });
    expect((await guesser.call('POST', '/sign-in', { email, password: PASSWORD })).json.stage).toBe('second_factor');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guesser.call('POST', '/sign-in/totp', { code: String(100000 + i) })));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(3);
    expect(answers.filter((a) => a.status === 429).length).toBe(20 - checked);
    clock.advance(601_000);
  });

  it('limits failed sign-ins per address, whatever the accounts', async () => {
    const flood = new DashboardClient(api.baseUrl, { address: '198.51.100.9' });
    let last = 0;
    for (let i = 0; i < 9; i += 1) last = (await flood.call('POST', '/sign-in', { email: `spray-${i}@example.com`, password: 'password123456' })).status;
    expect(last).toBe(429);
  });

  it("rewraps members' TOTP secrets with the rest, which then still verify", async () => {
    const { email, secret } = await onboardedOwner('REWRAP');
    const { rewrapped } = await api.app.get(MerchantStore).rewrap({ actor: 'test', channel: 'command' });
    expect(rewrapped).toBeGreaterThanOrEqual(1);
    const browser = new DashboardClient(api.baseUrl);
    await browser.call('POST', '/sign-in', { email, password: PASSWORD });
    clock.advance(STEP_MS);
    expect((await browser.call('POST', '/sign-in/totp', { code: await totpCode(secret, clock.now()) })).json.stage).toBe('active');
  });

  it('writes no password, TOTP secret or session token to the logs', async () => {
    const { browser, secret, merchantId } = await onboardedOwner('LOGS');
    const logged = JSON.stringify(api.logs);
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(browser.cookies.get('paysign_session'));
    expect(logged).not.toContain(browser.csrf);
    // Nor a setup link's token: it never travels in a path.
    const fresh = await merchantAdmin(api).run((admin) => admin.setupLink(merchantId, { email: `second-${randomUUID().slice(0, 6)}@example.com`, origin: api.baseUrl, ttlSeconds: 86_400 }));
    const token = linkToken(fresh.setupUrl);
    await new DashboardClient(api.baseUrl).call('POST', '/links/lookup', { token });
    await new DashboardClient(api.baseUrl).call('POST', '/links/accept', { token, password: PASSWORD });
    expect(JSON.stringify(api.logs)).not.toContain(token);
  });
});
