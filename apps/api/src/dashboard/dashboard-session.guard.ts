import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { DASHBOARD_ACCESS, type DashboardAccess } from './dashboard-access';
import { sameSecret } from './dashboard-tokens';
import { cookieNames, readCookie } from './session-cookie';
import { SessionStore, type DashboardSession } from './session-store';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session the guard admitted. */
    dashboardSession?: DashboardSession;
  }
}

const READS = new Set(['GET', 'HEAD']);

const NEXT_STEP = {
  second_factor: 'give a second factor with POST /sign-in/totp or POST /sign-in/passkey',
  enrol: 'register a passkey or confirm a TOTP code under /factors first',
  active: 'sign in again',
} as const;

/**
 * Admits a dashboard request: a live session from the cookie, at a stage
 * the operation takes, with a role it admits, the session's CSRF token on
 * anything but a read, and a fresh second factor where the operation asks.
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionStore,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.get<DashboardAccess>(DASHBOARD_ACCESS, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = await this.liveSession(request);
    const stages = access.stages ?? ['active'];
    if (!stages.includes(session.stage)) throw new ApiException('DASHBOARD_STAGE_REFUSED', { stage: session.stage, next: NEXT_STEP[session.stage] });
    if (!READS.has(request.method)) this.checkCsrf(request, session);
    if (access.roles !== 'any' && !access.roles.includes(session.role)) throw new ApiException('DASHBOARD_ROLE_FORBIDDEN', { role: session.role, roles: access.roles.join(', ') });
    if (access.freshFactor && session.stage === 'active' && !(session.freshUntil && session.freshUntil.getTime() > this.clock())) {
      throw new ApiException('DASHBOARD_FRESH_FACTOR_REQUIRED', { seconds: this.config.dashboard.freshFactorSeconds });
    }
    request.dashboardSession = session;
    return true;
  }

  private async liveSession(request: FastifyRequest): Promise<DashboardSession> {
    const token = readCookie(request, cookieNames(this.config.mode === 'production').session);
    const now = new Date(this.clock());
    const session = token === undefined ? undefined : await this.sessions.live(token, now, this.config.dashboard.sessionIdleSeconds);
    if (!session) throw new ApiException('DASHBOARD_UNAUTHENTICATED', { idle: `${Math.round(this.config.dashboard.sessionIdleSeconds / 60)} minutes` });
    await this.sessions.touch(session, now);
    return session;
  }

  private checkCsrf(request: FastifyRequest, session: DashboardSession): void {
    const given = request.headers['x-csrf-token'];
    if (typeof given !== 'string' || !sameSecret(given, session.csrfToken)) throw new ApiException('DASHBOARD_CSRF_REFUSED', {});
  }
}

/** The session the guard admitted. */
export const sessionOf = (request: FastifyRequest): DashboardSession => request.dashboardSession as DashboardSession;
