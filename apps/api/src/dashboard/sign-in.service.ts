import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { MerchantStore, owners } from '../merchants/merchant-store';
import { actorOf, DashboardAudit } from './dashboard-audit';
import { MemberStore, type MemberCredentials } from './member-store';
import { hashPassword, passwordMatches } from './password';
import { assertionOptions, registrationOptions, verifiedAssertion, verifiedRegistration, type RelyingParty } from './passkeys';
import { SessionStore, type DashboardSession, type SessionStage } from './session-store';
import { acceptedTotpStep, newTotpSecret, totpUri } from './totp';

const SIGN_IN_CHALLENGE = 'sign-in';
const REGISTER_CHALLENGE = 'register';

/** What a completed step hands the controller: a new session token to set, and a device to remember. */
export interface SignInStep {
  sessionToken?: string;
  deviceToken?: string;
}

/**
 * Signing in: the password, then a second factor, each failure counted per
 * account and per address; enrolling factors; and the links that make
 * members. Every success and every failure of a known member is in the
 * security log.
 */
@Injectable()
export class SignInService {
  constructor(
    readonly members: MemberStore,
    readonly sessions: SessionStore,
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** Checks the password; a new session at `second_factor` (or `enrol`) replaces the browser's old one. */
  async signIn(input: { email: string; password: string; address: string; deviceToken: string | undefined; oldSessionHash: string | undefined }): Promise<SignInStep> {
    const now = this.now();
    await this.refuseBusyAddress(input.address, now);
    const member = await this.members.byEmail(input.email);
    if (member) await this.takeAttempt(member, input.deviceToken, now);
    if (!(await passwordMatches(member?.passwordHash, input.password))) {
      await this.failed(member, 'The email or password', input.address, now);
    }
    const found = member as MemberCredentials;
    // A right password is no failure; the attempt stays taken only until the second factor completes the sign-in.
    await this.members.giveBackAttempt(found.id);
    if (input.oldSessionHash) await this.sessions.end(input.oldSessionHash, now);
    const passkeys = await this.members.passkeysOf(found.id);
    const stage: SessionStage = found.totpSecretSealed !== null || passkeys.length > 0 ? 'second_factor' : 'enrol';
    const sessionToken = await this.sessions.open(found.id, stage, { now, absoluteSeconds: this.config.dashboard.sessionAbsoluteSeconds, address: input.address, fresh: false, freshSeconds: 0 });
    await this.audit.record({ memberId: found.id, email: found.email, merchantId: found.merchantId, address: input.address }, 'sign-in.password', { detail: { next: stage } });
    return { sessionToken };
  }

  /** A TOTP code: finishes signing in, or gives an active session a fresh factor. */
  async totp(session: DashboardSession, code: string, client: { address: string; deviceToken: string | undefined }): Promise<SignInStep> {
    const { address } = client;
    const now = this.now();
    const member = await this.memberOf(session);
    await this.refuseBusyAddress(address, now);
    await this.takeAttempt(member, client.deviceToken, now);
    const secret = member.totpSecretSealed === null ? undefined : this.merchantStore.keyring.open(member.totpSecretSealed, totpOwner(member.id));
    const step = secret === undefined ? undefined : acceptedTotpStep(secret, code, now.getTime(), member.totpLastStep);
    if (step === undefined || !(await this.members.useTotpStep(member.id, step))) await this.failed(member, 'The code', address, now);
    return this.secondFactorPassed(session, member, address, 'totp');
  }

  async passkeyOptions(session: DashboardSession, rp: RelyingParty): Promise<object> {
    const passkeys = await this.members.passkeysOf(session.memberId);
    if (passkeys.length === 0) throw new ApiException('DASHBOARD_CONFLICT', { why: 'You have no passkey yet. Give a TOTP code instead, or register a passkey under Security once signed in.' });
    const options = await assertionOptions(rp, passkeys);
    await this.sessions.setChallenge(session, { value: options.challenge, purpose: SIGN_IN_CHALLENGE, expiresAt: new Date(this.clock() + 120_000) });
    return options;
  }

  async passkey(session: DashboardSession, rp: RelyingParty, response: unknown, client: { address: string; deviceToken: string | undefined }): Promise<SignInStep> {
    const { address } = client;
    const now = this.now();
    const member = await this.memberOf(session);
    await this.refuseBusyAddress(address, now);
    await this.takeAttempt(member, client.deviceToken, now);
    const challenge = await this.sessions.takeChallenge(session, SIGN_IN_CHALLENGE, now);
    const verified = challenge === undefined ? undefined : await verifiedAssertion(rp, await this.members.passkeysOf(member.id), response, challenge);
    if (!verified) await this.failed(member, 'The passkey', address, now);
    const { passkey, newCounter } = verified as NonNullable<typeof verified>;
    await this.members.usePasskey(passkey.id, newCounter, now);
    return this.secondFactorPassed(session, member, address, 'passkey');
  }

  /**
   * Checks a passkey assertion over a challenge the caller computed (an
   * approval's, bound to what it approves): a failure counts as a failed
   * sign-in, and no session changes stage.
   */
  async boundAssertion(session: DashboardSession, rp: RelyingParty, response: unknown, expectedChallenge: string | undefined, client: { address: string; deviceToken: string | undefined }): Promise<void> {
    const now = this.now();
    const member = await this.memberOf(session);
    await this.refuseBusyAddress(client.address, now);
    await this.takeAttempt(member, client.deviceToken, now);
    const verified = expectedChallenge === undefined ? undefined : await verifiedAssertion(rp, await this.members.passkeysOf(member.id), response, expectedChallenge);
    if (!verified) await this.failed(member, 'The passkey', client.address, now);
    const { passkey, newCounter } = verified as NonNullable<typeof verified>;
    await this.members.usePasskey(passkey.id, newCounter, now);
    await this.members.clearFailures(member.id);
  }

  /** A new TOTP secret, pending until a code from it is confirmed; shown this once. */
  async startTotp(session: DashboardSession): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = newTotpSecret();
    await this.members.setPendingTotp(session.memberId, this.merchantStore.keyring.seal(secret, totpOwner(session.memberId)));
    return { secret, otpauthUrl: totpUri(secret, { issuer: 'Paysign', label: session.email }) };
  }

  async confirmTotp(session: DashboardSession, code: string, client: { address: string; deviceToken: string | undefined }): Promise<SignInStep> {
    const { address } = client;
    const now = this.now();
    const member = await this.memberOf(session);
    if (member.totpPendingSealed === null) throw new ApiException('DASHBOARD_CONFLICT', { why: 'No TOTP secret is waiting to be confirmed. Start again with POST /factors/totp.' });
    await this.takeAttempt(member, client.deviceToken, now);
    const secret = this.merchantStore.keyring.open(member.totpPendingSealed, totpOwner(member.id));
    const step = acceptedTotpStep(secret, code, now.getTime(), null);
    if (step === undefined || !(await this.members.confirmTotp(member.id, member.totpPendingSealed, step))) await this.failed(member, 'The code', address, now);
    await this.audit.record(actorOf(session, address), 'factor.totp.added', {});
    return this.secondFactorPassed(session, member, address, 'totp', { enrolled: true });
  }

  async passkeyRegistrationOptions(session: DashboardSession, rp: RelyingParty): Promise<object> {
    const options = await registrationOptions(rp, { id: session.memberId, email: session.email }, await this.members.passkeysOf(session.memberId));
    await this.sessions.setChallenge(session, { value: options.challenge, purpose: REGISTER_CHALLENGE, expiresAt: new Date(this.clock() + 120_000) });
    return options;
  }

  async registerPasskey(session: DashboardSession, rp: RelyingParty, response: unknown, name: string, address: string): Promise<SignInStep> {
    const now = this.now();
    const member = await this.memberOf(session);
    const challenge = await this.sessions.takeChallenge(session, REGISTER_CHALLENGE, now);
    const passkey = challenge === undefined ? undefined : await verifiedRegistration(rp, response, challenge);
    if (!passkey) throw new ApiException('DASHBOARD_SIGN_IN_FAILED', this.failureParams('The new passkey'));
    if (!(await this.members.addPasskey({ ...passkey, memberId: member.id, name, createdAt: now }))) throw new ApiException('DASHBOARD_CONFLICT', { why: 'This passkey is already registered. Use it to sign in, or create a new one on your authenticator.' });
    await this.audit.record(actorOf(session, address), 'factor.passkey.added', { subject: passkey.id, detail: { name } });
    return this.secondFactorPassed(session, member, address, 'passkey', { enrolled: true });
  }

  /** Sets a password through a one-time link; the member exists from here on, and enrols a factor next. */
  async acceptLink(token: string, password: string, client: { address: string; oldSessionHash: string | undefined }): Promise<SignInStep> {
    const { address } = client;
    const now = this.now();
    const passwordHash = await hashPassword(password);
    const memberId = await this.merchantStore.client.transaction(async (tx) => {
      const link = await this.members.usableLink(tx, token, now, { forUpdate: true });
      if (!link) throw new ApiException('DASHBOARD_LINK_INVALID', {});
      await this.members.lockEmail(tx, link.email);
      if (await this.members.byEmail(link.email, tx)) throw new ApiException('DASHBOARD_CONFLICT', { why: `${link.email} is already a member of a team. Sign in instead; a removed member can be invited again.` });
      const id = await this.members.insert(tx, { merchantId: link.merchantId, email: link.email, role: link.role, passwordHash }, now);
      await this.members.useLink(tx, token, now);
      await this.merchantStore.audit(tx, { actor: link.email, channel: 'dashboard', address }, link.kind === 'setup' ? 'member.setup' : 'member.joined', { merchantId: link.merchantId, subject: id, detail: { role: link.role, invitedBy: link.createdBy } });
      return id;
    });
    if (client.oldSessionHash) await this.sessions.end(client.oldSessionHash, now);
    const sessionToken = await this.sessions.open(memberId, 'enrol', { now, absoluteSeconds: this.config.dashboard.sessionAbsoluteSeconds, address, fresh: true, freshSeconds: this.config.dashboard.freshFactorSeconds });
    return { sessionToken };
  }

  private async secondFactorPassed(session: DashboardSession, member: MemberCredentials, address: string, factor: 'totp' | 'passkey', options: { enrolled?: boolean } = {}): Promise<SignInStep> {
    const now = this.now();
    const completing = session.stage !== 'active';
    await this.sessions.advance(session, 'active', new Date(now.getTime() + this.config.dashboard.freshFactorSeconds * 1000));
    // Both factors are proven: the attempts without a completed sign-in start again from none.
    await this.members.clearFailures(member.id);
    if (!completing) {
      await this.audit.record(actorOf(session, address), 'factor.confirmed', { detail: { factor } });
      return {};
    }
    await this.audit.record(actorOf(session, address), 'sign-in', { detail: { factor, ...(options.enrolled ? { enrolled: true } : {}) } });
    return { deviceToken: await this.sessions.rememberDevice(member.id, now) };
  }

  private async refuseBusyAddress(address: string, now: Date): Promise<void> {
    if ((await this.sessions.addressFailures(address, now)) < this.config.dashboard.addressFailuresPerHour) return;
    const retryAfterSeconds = Math.ceil((3_600_000 - (now.getTime() % 3_600_000)) / 1000);
    throw signInLimited('from this address', retryAfterSeconds);
  }

  /**
   * Takes an attempt at the account's password or code before it is checked
   * (MemberStore.takeAttempt). A locked account refuses every browser, at the
   * password and at the second factor, but one that completed a sign-in to it
   * before (its device cookie): the lock stops guessing, and cannot keep the
   * member out.
   */
  private async takeAttempt(member: MemberCredentials, deviceToken: string | undefined, now: Date): Promise<void> {
    const pastLock = member.lockedUntil !== null && member.lockedUntil.getTime() > now.getTime() && (await this.sessions.isKnownDevice(deviceToken, member.id));
    const lockedUntil = await this.members.takeAttempt(member.id, { max: this.config.dashboard.signInMaxFailures, lockedUntil: new Date(now.getTime() + this.config.dashboard.lockoutSeconds * 1000), now, pastLock });
    if (lockedUntil) throw signInLimited('for this account', Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  }

  private async failed(member: MemberCredentials | undefined, what: string, address: string, now: Date): Promise<never> {
    await this.sessions.addressFailure(address, now);
    // The member's attempt was taken before the check (takeAttempt); the address's failures are counted here.
    if (member) {
      await this.audit.record({ memberId: member.id, email: member.email, merchantId: member.merchantId, address }, 'sign-in.failed', { detail: { what: what.replace(/^The /, '').toLowerCase() } });
    }
    throw new ApiException('DASHBOARD_SIGN_IN_FAILED', this.failureParams(what));
  }

  private failureParams(what: string) {
    return { what, maxFailures: this.config.dashboard.signInMaxFailures, lockoutMinutes: Math.round(this.config.dashboard.lockoutSeconds / 60) };
  }

  private async memberOf(session: DashboardSession): Promise<MemberCredentials> {
    const member = await this.members.byId(this.merchantStore.client, session.memberId);
    if (!member) throw new ApiException('DASHBOARD_UNAUTHENTICATED', { idle: 'removed' });
    return member;
  }

  /** Where passkeys are bound: PUBLIC_BASE_URL in production; elsewhere the origin the browser used, so `localhost` works in development. */
  relyingParty(request: FastifyRequest): RelyingParty {
    const origin = this.config.mode === 'production' && this.config.publicBaseUrl ? this.config.publicBaseUrl : `${request.protocol}://${request.headers.host ?? 'localhost'}`;
    return { id: new URL(origin).hostname, name: 'Paysign dashboard', origin };
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

/** A 429 that says when to come back, in its message and in Retry-After (set by the controller, which has the reply). */
export class SignInLimited extends ApiException<'DASHBOARD_SIGN_IN_LIMITED'> {
  constructor(
    scope: string,
    readonly retryAfterSeconds: number,
  ) {
    super('DASHBOARD_SIGN_IN_LIMITED', { scope, retryAfterSeconds });
  }
}

const signInLimited = (scope: string, retryAfterSeconds: number) => new SignInLimited(scope, Math.max(1, retryAfterSeconds));

/** The keyring's associated data for a member's TOTP secret: a sealed secret opens only on its own row. */
const totpOwner = owners.memberTotp;
