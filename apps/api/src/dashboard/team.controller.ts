import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { ROUTES } from '../http/routes';
import { MerchantStore } from '../merchants/merchant-store';
import { DashboardAudit } from './dashboard-audit';
import { EMAIL, FieldReader, jsonObject } from './dashboard-body';
import { mayManage, MEMBER_ROLES, type MemberRole } from './dashboard-roles';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { newToken } from './dashboard-tokens';
import { InvitationMailer } from './invitation-mailer';
import { MemberStore, type Member } from './member-store';
import { SessionStore, type DashboardSession } from './session-store';

type MemberView = DashboardComponents['schemas']['Member'];
type Invitation = DashboardComponents['schemas']['Invitation'];

const MEMBER_ID = /^mem_[A-Za-z0-9]{24}$/;

/**
 * The team (tag Team): invitations, roles and removals. An admin manages
 * everyone but owners and cannot make one; nobody changes their own role;
 * the last owner stays. Each change is one transaction with its security
 * log line, serialised per merchant on its owners' rows.
 */
@Controller('dashboard/api')
export class TeamController {
  constructor(
    private readonly members: MemberStore,
    private readonly sessions: SessionStore,
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    private readonly mailer: InvitationMailer,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get('members')
  @DashboardRoute({ roles: [...MEMBER_ROLES] })
  async list(@Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['Team']> {
    const { merchantId } = sessionOf(request);
    const [members, invitations] = await Promise.all([this.members.ofMerchant(merchantId), this.members.openInvitations(merchantId, this.now())]);
    return { members: members.map(memberView), invitations: invitations.map((i) => ({ email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString() })) };
  }

  @Post('invitations')
  @HttpCode(201)
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async invite(@Req() request: FastifyRequest): Promise<Invitation> {
    const fields = new FieldReader(jsonObject(request), ['email', 'role']);
    const email = fields.string('email', EMAIL);
    const role = fields.oneOf('role', MEMBER_ROLES);
    fields.done();
    const session = sessionOf(request);
    if (!mayManage(session.role, role, role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: 'owner, to invite an owner' });
    // Only this team's own members are named: whether an address is another team's stays unknown, and its acceptance fails then.
    if ((await this.members.byEmail(email))?.merchantId === session.merchantId) throw new ApiException('DASHBOARD_CONFLICT', { why: `${email} is already a member of this team. Change their role instead.` });
    const token = newToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.config.dashboard.linkTtlSeconds * 1000);
    await this.merchantStore.client.transaction(async (tx) => {
      await this.members.revokeLinksFor(tx, session.merchantId, email, now);
      await this.members.insertLink(tx, token, { kind: 'invitation', merchantId: session.merchantId, email, role, createdBy: session.email, expiresAt }, now);
      await this.merchantStore.audit(tx, this.actor(session, request), 'member.invited', { merchantId: session.merchantId, subject: email, detail: { role, memberId: session.memberId } });
    });
    const origin = this.config.publicBaseUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`;
    const url = `${origin}${ROUTES.dashboardLink(token)}`;
    const mailed = await this.mailer.send({ to: email, merchantName: session.merchantName, invitedBy: session.email, role, url, expiresAt });
    return { email, role, expiresAt: expiresAt.toISOString(), url, mailed };
  }

  @Patch('members/:memberId')
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async changeRole(@Param('memberId') memberId: string, @Req() request: FastifyRequest): Promise<MemberView> {
    const fields = new FieldReader(jsonObject(request), ['role']);
    const role = fields.oneOf('role', MEMBER_ROLES);
    fields.done();
    const session = sessionOf(request);
    if (memberId === session.memberId) throw new ApiException('DASHBOARD_CONFLICT', { why: 'Nobody changes their own role. Ask another owner or admin.' });
    const changed = await this.merchantStore.client.transaction(async (tx) => {
      const target = await this.teammate(tx, session, memberId);
      if (!mayManage(session.role, target.role, role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: 'owner, to make or unmake an owner' });
      if (target.role === 'owner' && role !== 'owner' && (await this.members.owners(tx, session.merchantId)) <= 1) throw lastOwner();
      await this.members.setRole(tx, target.id, role, this.now());
      await this.merchantStore.audit(tx, this.actor(session, request), 'member.role-changed', { merchantId: session.merchantId, subject: target.email, detail: { from: target.role, to: role, memberId: session.memberId } });
      return { ...target, role };
    });
    return memberView(changed);
  }

  @Delete('members/:memberId')
  @HttpCode(204)
  @DashboardRoute({ roles: ['owner', 'admin'] })
  async remove(@Param('memberId') memberId: string, @Req() request: FastifyRequest): Promise<void> {
    const session = sessionOf(request);
    await this.merchantStore.client.transaction(async (tx) => {
      const target = await this.teammate(tx, session, memberId);
      if (!mayManage(session.role, target.role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: 'owner, to remove an owner' });
      if (target.role === 'owner' && (await this.members.owners(tx, session.merchantId)) <= 1) throw lastOwner();
      await this.members.remove(tx, target.id, this.now());
      await this.merchantStore.audit(tx, this.actor(session, request), 'member.removed', { merchantId: session.merchantId, subject: target.email, detail: { role: target.role, memberId: session.memberId } });
    });
    // A removed member's sessions already fail (live() joins on removed_at); ending them records when.
    await this.sessions.endAllOf(memberId, this.now());
  }

  /** A member of the session's own merchant, locked with the merchant's owners so that two removals cannot leave none. */
  private async teammate(tx: Parameters<Parameters<MerchantStore['client']['transaction']>[0]>[0], session: DashboardSession, memberId: string): Promise<Member> {
    if (!MEMBER_ID.test(memberId)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'member', id: memberId.slice(0, 80) });
    await tx.query("SELECT id FROM dashboard_members WHERE merchant_id = $1 AND role = 'owner' AND removed_at IS NULL FOR UPDATE", [session.merchantId]);
    const target = await this.members.byId(tx, memberId, { forUpdate: true });
    if (!target || target.merchantId !== session.merchantId) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'member', id: memberId });
    return target;
  }

  private actor(session: DashboardSession, request: FastifyRequest) {
    return this.audit.actorOf({ memberId: session.memberId, email: session.email, merchantId: session.merchantId, address: request.ip });
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

const lastOwner = () => new ApiException('DASHBOARD_CONFLICT', { why: 'This is the last owner: a team always keeps one. Make another member an owner first.' });

function memberView(m: Member): MemberView {
  return { id: m.id, email: m.email, role: m.role as MemberRole, createdAt: m.createdAt.toISOString() };
}

