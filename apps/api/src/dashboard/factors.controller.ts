import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { FieldReader, jsonObject, TOTP_CODE } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { cookieNames, DEVICE_COOKIE_SECONDS, readCookie, setCookie } from './session-cookie';
import { answerSession } from './session.controller';
import { SignInService } from './sign-in.service';


/** A member's second factors (tag Factors): enrolled at stage `enrol`, added later with a fresh factor. */
@Controller('dashboard/api/factors')
export class FactorsController {
  constructor(
    private readonly signIn: SignInService,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  @DashboardRoute({ roles: 'any', stages: ['enrol', 'active'] })
  async list(@Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['Factors']> {
    const session = sessionOf(request);
    const passkeys = await this.signIn.members.passkeysOf(session.memberId);
    return { totp: session.hasTotp, passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null })) };
  }

  @Post('totp')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['enrol', 'active'], freshFactor: true })
  startTotp(@Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['TotpEnrolment']> {
    return this.signIn.startTotp(sessionOf(request));
  }

  @Post('totp/confirm')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['enrol', 'active'] })
  async confirmTotp(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardComponents['schemas']['Session']> {
    const fields = new FieldReader(jsonObject(request), ['code']);
    const code = fields.string('code', TOTP_CODE);
    fields.done();
    const step = await this.signIn.confirmTotp(sessionOf(request), code, { address: request.ip, deviceToken: readCookie(request, cookieNames(this.config.mode === 'production').device) });
    return this.answer(request, reply, step.deviceToken);
  }

  @Post('passkeys/options')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['enrol', 'active'], freshFactor: true })
  passkeyOptions(@Req() request: FastifyRequest): Promise<object> {
    return this.signIn.passkeyRegistrationOptions(sessionOf(request), this.signIn.relyingParty(request));
  }

  @Post('passkeys')
  @HttpCode(200)
  @DashboardRoute({ roles: 'any', stages: ['enrol', 'active'] })
  async registerPasskey(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardComponents['schemas']['Session']> {
    const fields = new FieldReader(jsonObject(request), ['response', 'name']);
    const response = fields.object('response');
    const name = fields.string('name', { max: 64, pattern: /^[^\p{Cc}\p{Cf}]+$/u, describe: 'a name of 1 to 64 characters for this passkey, such as "Work laptop"' });
    fields.done();
    const step = await this.signIn.registerPasskey(sessionOf(request), this.signIn.relyingParty(request), response, name, request.ip);
    return this.answer(request, reply, step.deviceToken);
  }

  private answer(request: FastifyRequest, reply: FastifyReply, deviceToken: string | undefined): Promise<DashboardComponents['schemas']['Session']> {
    const cookies = cookieNames(this.config.mode === 'production');
    if (deviceToken) setCookie(reply, cookies, cookies.device, deviceToken, DEVICE_COOKIE_SECONDS);
    return answerSession(this.signIn, this.config, request, readCookie(request, cookies.session), new Date(this.clock()));
  }
}
