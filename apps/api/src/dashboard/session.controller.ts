import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { ServiceMetrics } from '../metrics/service-metrics';
import { EMAIL, FieldReader, jsonObject, TOTP_CODE } from './dashboard-body';
import { DashboardAudit } from './dashboard-audit';
import { DashboardOpenRoute, DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { tokenHash } from './dashboard-tokens';
import { cookieNames, DEVICE_COOKIE_SECONDS, readCookie, setCookie, type CookieNames } from './session-cookie';
import { sessionView } from './session-view';
import { SignInLimited, SignInService, type SignInStep } from './sign-in.service';
import { actorOf } from './dashboard-audit';

type Session = DashboardComponents['schemas']['Session'];


/** Signing in and out (openapi/dashboard-api.yaml, tag Session). */
@Controller('dashboard/api')
export class SessionController {
  private readonly cookies: CookieNames;

  constructor(
    private readonly signIn: SignInService,
    private readonly audit: DashboardAudit,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {
    this.cookies = cookieNames(config.mode === 'production');
  }

  @Get('session')
  @DashboardRoute({ roles: 'any', stages: ['second_factor', 'enrol', 'active'] })
  session(@Req() request: FastifyRequest): Session {
    return sessionView(sessionOf(request), this.config.dashboard.sessionIdleSeconds);
  }

  @Post('sign-in')
  @HttpCode(200)
  @DashboardOpenRoute()
  async signInWithPassword(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Session> {
    const fields = new FieldReader(jsonObject(request), ['email', 'password']);
    const email = fields.string('email', EMAIL);
    const password = fields.string('password', { max: 1024, describe: 'your password' });
    fields.done();
    const old = readCookie(request, this.cookies.session);
    const step = await this.counted('password', reply, () => this.signIn.signIn({ email, password, address: request.ip, deviceToken: readCookie(request, this.cookies.device), oldSessionHash: old && tokenHash(old) }));
    return this.answer(request, reply, step);
  }

  @Post('sign-in/totp')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['second_factor', 'active'] })
  async totp(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Session> {
    const fields = new FieldReader(jsonObject(request), ['code']);
    const code = fields.string('code', TOTP_CODE);
    fields.done();
    return this.answer(request, reply, await this.counted('totp', reply, () => this.signIn.totp(sessionOf(request), code, this.client(request))));
  }

  @Post('sign-in/passkey/options')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['second_factor', 'active'] })
  passkeyOptions(@Req() request: FastifyRequest): Promise<object> {
    return this.signIn.passkeyOptions(sessionOf(request), this.signIn.relyingParty(request));
  }

  @Post('sign-in/passkey')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['second_factor', 'active'] })
  async passkey(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Session> {
    const fields = new FieldReader(jsonObject(request), ['response']);
    const response = fields.object('response');
    fields.done();
    return this.answer(request, reply, await this.counted('passkey', reply, () => this.signIn.passkey(sessionOf(request), this.signIn.relyingParty(request), response, this.client(request))));
  }

  @Post('sign-out')
  @HttpCode(204)
  @DashboardRoute({ roles: 'any', stages: ['second_factor', 'enrol', 'active'] })
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const session = sessionOf(request);
    await this.signIn.sessions.end(session.tokenHash, new Date(this.clock()));
    await this.audit.record(actorOf(session, request.ip), 'sign-out', {});
    setCookie(reply, this.cookies, this.cookies.session, '', 0);
  }

  @Post('sign-out-everywhere')
  @HttpCode(204)
  @DashboardRoute({ roles: 'any' })
  async signOutEverywhere(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const session = sessionOf(request);
    const ended = await this.signIn.sessions.endAllOf(session.memberId, new Date(this.clock()));
    await this.audit.record(actorOf(session, request.ip), 'sign-out.everywhere', { detail: { sessions: ended } });
    setCookie(reply, this.cookies, this.cookies.session, '', 0);
  }

  /** Runs a sign-in step and counts its outcome (paysign_dashboard_sign_ins_total); a refusal for too many failures carries Retry-After. */
  private async counted<T>(step: 'password' | 'totp' | 'passkey', reply: FastifyReply, run: () => Promise<T>): Promise<T> {
    try {
      const done = await run();
      this.metrics.dashboardSignIns.inc({ step, outcome: 'ok' });
      return done;
    } catch (error) {
      if (error instanceof SignInLimited) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
        this.metrics.dashboardSignIns.inc({ step, outcome: 'limited' });
      } else if (error instanceof ApiException && error.code === 'DASHBOARD_SIGN_IN_FAILED') {
        this.metrics.dashboardSignIns.inc({ step, outcome: 'failed' });
      }
      throw error;
    }
  }

  private client(request: FastifyRequest): { address: string; deviceToken: string | undefined } {
    return { address: request.ip, deviceToken: readCookie(request, this.cookies.device) };
  }

  /** Sets what the step gave (a new session, a remembered browser) and answers the session as it is now. */
  private async answer(request: FastifyRequest, reply: FastifyReply, step: SignInStep): Promise<Session> {
    if (step.sessionToken) setCookie(reply, this.cookies, this.cookies.session, step.sessionToken, this.config.dashboard.sessionAbsoluteSeconds);
    if (step.deviceToken) setCookie(reply, this.cookies, this.cookies.device, step.deviceToken, DEVICE_COOKIE_SECONDS);
    return answerSession(this.signIn, this.config, request, step.sessionToken ?? readCookie(request, this.cookies.session), new Date(this.clock()));
  }
}


/** The session of `token` as the contract gives it, read after the change that led here. */
export async function answerSession(signIn: SignInService, config: AppConfig, _request: FastifyRequest, token: string | undefined, now: Date): Promise<Session> {
  const session = token === undefined ? undefined : await signIn.sessions.live(token, now, config.dashboard.sessionIdleSeconds);
  if (!session) throw new ApiException('DASHBOARD_UNAUTHENTICATED', { idle: `${Math.round(config.dashboard.sessionIdleSeconds / 60)} minutes` });
  return sessionView(session, config.dashboard.sessionIdleSeconds);
}
