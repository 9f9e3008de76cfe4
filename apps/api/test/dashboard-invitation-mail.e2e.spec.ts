// Invitations mailed through SMTP_URL, to a real SMTP server on loopback:
// the mail carries the one-time link, and with the server gone the
// inviter is still shown the link, and no log line holds it.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { freePort } from './support/private-redis';
import { merchantWithOwner } from './support/dashboard-team';
import { describeWithStore, DATABASE_URL } from './support/stores';
import { startTestApp, type TestApp } from './support/test-app';
import { TestClock } from './support/test-clock';

describeWithStore('PostgreSQL', DATABASE_URL, 'dashboard invitations by mail', () => {
  const clock = new TestClock();
  const mails: Array<{ to: string[]; body: string }> = [];
  let smtp: SMTPServer;
  let api: TestApp;
  let down: TestApp;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), body: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    api = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'Paysign <invites@example.com>' }, { overrides: { clock: clock.now } });
    // Nothing listens on this port: every mail fails to connect.
    down = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, { overrides: { clock: clock.now } });
  });
  afterAll(async () => {
    await api.close();
    await down.close();
    await new Promise<void>((resolve) => smtp.close(resolve));
  });

  it('mails the invitation link to the invitee, from SMTP_FROM', async () => {
    const { owner } = await merchantWithOwner(api, clock, 'MAIL');
    const invitation = await owner.browser.call('POST', '/invitations', { email: 'grace@example.com', role: 'developer' });
    expect(invitation.json).toMatchObject({ email: 'grace@example.com', role: 'developer', mailed: true });
    const mail = mails.find((m) => m.to.includes('grace@example.com'));
    expect(mail?.body).toContain('From: Paysign <invites@example.com>');
    // Quoted-printable may fold a long line: unfold it before looking for the link.
    expect(mail?.body.replace(/=\r\n/g, '')).toContain(String(invitation.json.url).replace(/=/g, '=3D'));
  });

  it('shows the link to the inviter when the mail fails, and logs it nowhere', async () => {
    const { owner } = await merchantWithOwner(down, clock, 'NOMAIL');
    const invitation = await owner.browser.call('POST', '/invitations', { email: 'alan@example.com', role: 'viewer' });
    expect(invitation.status).toBe(201);
    expect(invitation.json.mailed).toBe(false);
    expect(String(invitation.json.url)).toMatch(/\/payment\/dashboard\/welcome#[A-Za-z0-9_-]{43}$/);
    expect(down.logs.some((line) => line.msg === 'invitation not mailed: the inviter was shown its link')).toBe(true);
    expect(JSON.stringify(down.logs)).not.toContain(String(invitation.json.url).split('#')[1]);
  });
});
