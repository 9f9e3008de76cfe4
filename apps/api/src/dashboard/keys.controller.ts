import { Controller, Get, HttpCode, Inject, Optional, Param, Post, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { AppConfigToken } from '../config/app-config.token';
import type { AppConfig } from '../config/app-config';
import { ApiException } from '../errors/api.exception';
import { MerchantAdmin, Refusal, type KeyView } from '../merchants/merchant-admin';
import { json, MerchantStore } from '../merchants/merchant-store';
import { MerchantsSync } from '../merchants/merchants-sync';
import { PAYOUT_ROLES, type PayoutRole } from '../merchants/payout-approval';
import { DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import type { MemberRole } from './dashboard-roles';
import { sessionOf } from './dashboard-session.guard';
import type { DashboardSession } from './session-store';

type ApiKey = DashboardComponents['schemas']['ApiKey'];

/** The member roles that may approve payouts in the dashboard, and so may make or roll a key that approves them. */
const APPROVING_MEMBERS: readonly MemberRole[] = ['owner', 'admin'];

/**
 * A key holding payouts:approve is an approver's tool: a developer who made
 * one beside a payouts:create key could create and approve alone. Only an
 * owner or admin makes or rolls one.
 */
function mayHoldApproval(session: DashboardSession, roles: readonly PayoutRole[]): void {
  if (roles.includes('payouts:approve') && !APPROVING_MEMBERS.includes(session.role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: `${APPROVING_MEMBERS.join(' or ')}, for a key holding payouts:approve` });
}
type NewApiKey = DashboardComponents['schemas']['NewApiKey'];

/** The overlaps a roll offers, as Stripe's: none, an hour, a day, a week. */
export const OVERLAPS = { now: 0, '1h': 3600, '24h': 86_400, '7d': 604_800 } as const;

const API_KEY = /^pk_[a-z]+_[A-Za-z0-9_]{1,64}$/;

/**
 * The merchant's API keys (tag Keys), through the operators' own MerchantAdmin,
 * so that a key made here is made, audited and synced exactly as one made by
 * `merchants roll-key`; the actor is the member.
 */
@Controller('dashboard/api/keys')
export class KeysController {
  constructor(
    private readonly merchantStore: MerchantStore,
    private readonly audit: DashboardAudit,
    @Optional() @Inject(MerchantsSync) private readonly sync: MerchantsSync | null,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'viewer'] })
  async list(@Req() request: FastifyRequest): Promise<{ data: ApiKey[] }> {
    const keys = (await this.admin(request).show(sessionOf(request).merchantId)).keys as KeyView[];
    return { data: keys.reverse().map((k) => ({ ...k, roles: k.roles as PayoutRole[] })) };
  }

  @Post()
  @HttpCode(201)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'], freshFactor: true })
  async create(@Req() request: FastifyRequest): Promise<NewApiKey> {
    const fields = new FieldReader(jsonObject(request), ['roles']);
    const roles = fields.roles('roles', PAYOUT_ROLES);
    fields.done();
    const session = sessionOf(request);
    mayHoldApproval(session, roles);
    const made = await this.changed(() => this.admin(request).addKey(session.merchantId, roles, { createdByMember: session.memberId }));
    return { apiKey: made.apiKey, secretKey: made.secretKey, roles: [...made.roles] };
  }

  @Post(':apiKey/roll')
  @HttpCode(201)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'], freshFactor: true })
  async roll(@Param('apiKey') apiKey: string, @Req() request: FastifyRequest): Promise<NewApiKey> {
    const fields = new FieldReader(jsonObject(request), ['oldKeyExpiresIn']);
    const overlap = fields.oneOf('oldKeyExpiresIn', Object.keys(OVERLAPS) as Array<keyof typeof OVERLAPS>);
    fields.done();
    const session = sessionOf(request);
    mayHoldApproval(session, await this.ownKey(session, apiKey));
    const rolled = await this.changed(() => this.admin(request).rollKey(apiKey, { expiresInSeconds: OVERLAPS[overlap], createdByMember: session.memberId }));
    return { apiKey: rolled.apiKey, secretKey: rolled.secretKey, roles: [...rolled.roles], oldKeyExpiresAt: rolled.oldKeyExpiresAt };
  }

  @Post(':apiKey/revoke')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'], freshFactor: true })
  async revoke(@Param('apiKey') apiKey: string, @Req() request: FastifyRequest): Promise<ApiKey> {
    const session = sessionOf(request);
    await this.ownKey(session, apiKey);
    await this.changed(() => this.admin(request).revokeKey(apiKey));
    const keys = (await this.admin(request).show(session.merchantId)).keys as KeyView[];
    const key = keys.find((k) => k.apiKey === apiKey) as KeyView;
    return { ...key, roles: key.roles as PayoutRole[] };
  }

  private admin(request: FastifyRequest): MerchantAdmin {
    const session = sessionOf(request);
    return new MerchantAdmin(this.merchantStore, this.config.mode, this.audit.actorOf({ memberId: session.memberId, email: session.email, merchantId: session.merchantId, address: request.ip }), () => new Date(this.clock()));
  }

  /** The roles of the merchant's key; another merchant's key, or none, is answered as unknown: a member learns nothing of keys not theirs. */
  private async ownKey(session: DashboardSession, apiKey: string): Promise<readonly PayoutRole[]> {
    const own = API_KEY.test(apiKey) ? (await this.merchantStore.credentialsOf(this.merchantStore.client, session.merchantId)).find((c) => c.api_key === apiKey) : undefined;
    if (!own) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'API key', id: apiKey.slice(0, 80) });
    return json(own.roles);
  }

  /** Runs a change, answers the operator's refusal as a conflict, and loads the merchants here before answering. */
  private async changed<T>(change: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await change();
    } catch (error) {
      if (error instanceof Refusal) throw new ApiException('DASHBOARD_CONFLICT', { why: error.message });
      throw error;
    }
    await this.sync?.refresh('changed in the dashboard');
    return result;
  }
}
