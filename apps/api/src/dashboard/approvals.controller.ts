import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { MerchantStore } from '../merchants/merchant-store';
import { PayoutsService } from '../payouts/payouts.service';
import { boundChallenge, challengeText, payoutBinding } from './approval-binding';
import { DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject, TOTP_CODE } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { assertionOptions, PASSKEY_TIMEOUT_MS } from './passkeys';
import { cookieNames, readCookie } from './session-cookie';
import { actorOf, SignInService } from './sign-in.service';

type PendingApproval = DashboardComponents['schemas']['PendingApproval'];

const REFERENCE = /^[A-Za-z0-9._-]{1,64}$/;
/** The most payouts the approvals page lists at once, oldest first. */
const APPROVALS_PAGE = 100;

/**
 * Approvals (tag Approvals): payouts waiting for a second person, approved
 * with a passkey assertion whose challenge binds the payout's reference,
 * amount, currency and destination (approval-binding.ts), or with a TOTP
 * code by a member who has no passkey. The signed API's approve route is
 * unchanged beside it.
 */
@Controller('dashboard/api/approvals')
export class ApprovalsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly signIn: SignInService,
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async list(@Req() request: FastifyRequest): Promise<{ data: PendingApproval[] }> {
    const { merchantId } = sessionOf(request);
    const waiting = await this.payouts.list({ merchantId, status: 'PENDING_APPROVAL', limit: APPROVALS_PAGE });
    return {
      data: waiting
        .filter((p) => p.batchReference === null && p.purpose === 'payout')
        .reverse()
        .map((p) => ({ ...payoutBinding(p), createdAt: p.createdAt.toISOString(), createdBy: p.createdBy ?? '' })),
    };
  }

  @Post(':kind/:reference/options')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'approver'] })
  async options(@Param('kind') kind: string, @Param('reference') reference: string, @Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['ApprovalChallenge']> {
    const session = sessionOf(request);
    const payout = await this.awaiting(session.merchantId, kind, reference);
    const passkeys = await this.signIn.members.passkeysOf(session.memberId);
    if (passkeys.length === 0) throw new ApiException('DASHBOARD_CONFLICT', { why: 'You have no passkey, so nothing can be bound to this payout. Approve with a TOTP code instead, or add a passkey under Security.' });
    const binding = payoutBinding(payout);
    const nonce = randomBytes(16).toString('base64url');
    const options = await assertionOptions(this.signIn.relyingParty(request), passkeys, boundChallenge(binding, nonce));
    await this.signIn.sessions.setChallenge(session, { value: nonce, purpose: purposeOf(reference), expiresAt: new Date(this.clock() + PASSKEY_TIMEOUT_MS) });
    return { binding, options: { ...options } };
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
    const payout = await this.awaiting(session.merchantId, kind, reference);
    const ownKeys = await this.merchantStore.keysCreatedByMember(session.merchantId, session.memberId);
    if (payout.createdBy !== null && ownKeys.includes(payout.createdBy)) throw new ApiException('DASHBOARD_FOUR_EYES', { key: payout.createdBy, subject: `payout ${reference}` });
    const client = { address: request.ip, deviceToken: readCookie(request, cookieNames(this.config.mode === 'production').device) };
    const binding = payoutBinding(payout);
    if (passkey !== undefined) {
      const nonce = await this.signIn.sessions.takeChallenge(session, purposeOf(reference), new Date(this.clock()));
      await this.signIn.boundAssertion(session, this.signIn.relyingParty(request), passkey, nonce === undefined ? undefined : challengeText(boundChallenge(binding, nonce)), client);
    } else {
      if (session.passkeys > 0) throw new ApiException('DASHBOARD_CONFLICT', { why: 'You have a passkey: approve with it, so that what you approve is bound to what you were shown.' });
      await this.signIn.totp(session, totpCode as string, client);
    }
    const approved = await this.payouts.approveAsMember(session.merchantId, reference, { decidedBy: `dashboard:${session.email}`, ownKeys });
    await this.audit.record(actorOf(session, request.ip), 'payout.approved', { subject: reference, detail: { ...binding, factor: passkey !== undefined ? 'passkey' : 'totp' } });
    return { kind: 'payout', reference, status: approved.status };
  }

  /** The merchant's payout awaiting approval outside a batch; anything else is not found or not awaiting. */
  private async awaiting(merchantId: string, kind: string, reference: string) {
    if (kind !== 'payout' || !REFERENCE.test(reference)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: kind === 'payout' ? 'payout' : 'approval kind', id: reference.slice(0, 64) });
    const payout = await this.payouts.get({ merchantId, reference }).catch((error: unknown) => {
      if (error instanceof ApiException && error.code === 'PAYOUT_NOT_FOUND') throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'payout', id: reference });
      throw error;
    });
    if (payout.batchReference !== null) throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout ${reference} belongs to batch ${payout.batchReference}, which is approved by its submission.` });
    if (payout.status !== 'PENDING_APPROVAL') throw new ApiException('DASHBOARD_CONFLICT', { why: `Payout ${reference} is ${payout.status}, not waiting for approval.` });
    return payout;
  }
}

const purposeOf = (reference: string): string => `approve:payout:${reference}`;
