import { randomBytes } from 'node:crypto';
import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { MerchantStore } from '../merchants/merchant-store';
import { boundChallenge, challengeText } from './approval-binding';
import { ApprovalSubjects } from './approval-subjects';
import { DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject, TOTP_CODE } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { assertionOptions, PASSKEY_TIMEOUT_MS } from './passkeys';
import { cookieNames, readCookie } from './session-cookie';
import { SignInService } from './sign-in.service';
import { actorOf } from './dashboard-audit';
import { memberIdentity } from '../merchants/member-identity';

type PendingApproval = DashboardComponents['schemas']['PendingApproval'];

/**
 * Approvals (tag Approvals): payouts and batches waiting for a second
 * person, approved with a passkey assertion whose challenge binds what the
 * approver was shown (approval-binding.ts), or with a TOTP code by a member
 * who has no passkey. The signed API's approve and submit routes are
 * unchanged beside it.
 */
@Controller('dashboard/api/approvals')
export class ApprovalsController {
  constructor(
    private readonly subjects: ApprovalSubjects,
    private readonly signIn: SignInService,
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async list(@Req() request: FastifyRequest): Promise<{ data: PendingApproval[] }> {
    const waiting = await this.subjects.waiting(sessionOf(request).merchantId);
    return { data: waiting.map((s) => ({ ...s.binding, createdAt: s.createdAt.toISOString(), createdBy: s.createdBy })) };
  }

  @Post(':kind/:reference/options')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async options(@Param('kind') kind: string, @Param('reference') reference: string, @Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['ApprovalChallenge']> {
    const session = sessionOf(request);
    const subject = await this.subjects.find(session.merchantId, kind, reference);
    const passkeys = await this.signIn.members.passkeysOf(session.memberId);
    if (passkeys.length === 0) throw new ApiException('DASHBOARD_CONFLICT', { why: 'You have no passkey, so nothing can be bound to what you approve. Approve with a TOTP code instead, or add a passkey under Security.' });
    const nonce = randomBytes(16).toString('base64url');
    const options = await assertionOptions(this.signIn.relyingParty(request), passkeys, boundChallenge(subject.binding, nonce));
    await this.signIn.sessions.setChallenge(session, { value: nonce, purpose: purposeOf(kind, reference), expiresAt: new Date(this.clock() + PASSKEY_TIMEOUT_MS) });
    return { binding: subject.binding, options: { ...options } };
  }

  @Post(':kind/:reference')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async approve(@Param('kind') kind: string, @Param('reference') reference: string, @Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['ApprovalResult']> {
    const fields = new FieldReader(jsonObject(request), ['passkey', 'totpCode']);
    const passkey = fields.object('passkey', { optional: true });
    const totpCode = passkey === undefined ? fields.string('totpCode', TOTP_CODE) : undefined;
    fields.done();
    const session = sessionOf(request);
    const subject = await this.subjects.find(session.merchantId, kind, reference);
    // The member and every key they made are one person: none approves what another of them created.
    const ownKeys = await this.merchantStore.identitiesOf(session.merchantId, session.email);
    if (ownKeys.includes(subject.createdBy)) throw new ApiException('DASHBOARD_FOUR_EYES', { key: subject.createdBy, subject: `${kind === 'batch' ? 'Payout batch' : 'Payout'} ${reference}` });
    const client = { address: request.ip, deviceToken: readCookie(request, cookieNames(this.config.mode === 'production').device) };
    if (passkey !== undefined) {
      // The challenge is computed again from the object as it is now: an assertion over what the approver saw before a change, or over an altered challenge, fails.
      const nonce = await this.signIn.sessions.takeChallenge(session, purposeOf(kind, reference), new Date(this.clock()));
      await this.signIn.boundAssertion(session, this.signIn.relyingParty(request), passkey, nonce === undefined ? undefined : challengeText(boundChallenge(subject.binding, nonce)), client);
    } else {
      if (session.passkeys > 0) throw new ApiException('DASHBOARD_CONFLICT', { why: 'You have a passkey: approve with it, so that what you approve is bound to what you were shown.' });
      await this.signIn.totp(session, totpCode as string, client);
    }
    const approved = await subject.approve({
      decidedBy: memberIdentity(session.email),
      ownKeys,
      alsoInTransaction: (tx) => this.audit.record(actorOf(session, request.ip), `${kind}.approved`, { subject: reference, detail: { ...subject.binding, factor: passkey !== undefined ? 'passkey' : 'totp' } }, tx),
    });
    return { kind: subject.binding.kind, reference, status: approved.status };
  }

  /** Rejects it with a reason, which its payouts keep (`approval.reason`); no second factor, as a rejection sends no money. */
  @Post(':kind/:reference/reject')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async reject(@Param('kind') kind: string, @Param('reference') reference: string, @Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['ApprovalResult']> {
    const fields = new FieldReader(jsonObject(request), ['reason']);
    const reason = fields.text('reason', REASON);
    fields.done();
    const session = sessionOf(request);
    const subject = await this.subjects.find(session.merchantId, kind, reference);
    const rejected = await subject.reject({
      decidedBy: memberIdentity(session.email),
      note: reason,
      alsoInTransaction: (tx) => this.audit.record(actorOf(session, request.ip), `${kind}.rejected`, { subject: reference, detail: { ...subject.binding, reason } }, tx),
    });
    return { kind: subject.binding.kind, reference, status: rejected.status };
  }
}

const REASON = { max: 200, describe: '1 to 200 characters saying why, such as "Not on the November payroll"' };

const purposeOf = (kind: string, reference: string): string => `approve:${kind}:${reference}`;
