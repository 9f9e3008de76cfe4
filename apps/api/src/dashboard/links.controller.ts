import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardOpenRoute } from './dashboard-route.decorator';
import { TOKEN_PATTERN } from './dashboard-tokens';
import { MIN_PASSWORD_LENGTH } from './password';
import { cookieNames, setCookie } from './session-cookie';
import { answerSession } from './session.controller';
import { SignInService } from './sign-in.service';

/** The one-time setup and invitation links (tag Links): what one is for, and setting a password through it. */
@Controller('dashboard/api/links')
export class LinksController {
  constructor(
    private readonly signIn: SignInService,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get(':token')
  @DashboardOpenRoute()
  async get(@Param('token') token: string): Promise<DashboardComponents['schemas']['Link']> {
    const link = TOKEN_PATTERN.test(token) ? await this.signIn.members.usableLink(this.signIn.members.client, token, new Date(this.clock())) : undefined;
    if (!link) throw new ApiException('DASHBOARD_LINK_INVALID', {});
    return { kind: link.kind, email: link.email, role: link.role, merchantName: link.merchantName, expiresAt: link.expiresAt.toISOString() };
  }

  @Post(':token')
  @HttpCode(200)
  @DashboardOpenRoute()
  async accept(@Param('token') token: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardComponents['schemas']['Session']> {
    if (!TOKEN_PATTERN.test(token)) throw new ApiException('DASHBOARD_LINK_INVALID', {});
    const fields = new FieldReader(jsonObject(request), ['password']);
    const password = fields.string('password', { min: MIN_PASSWORD_LENGTH, max: 1024, describe: `a password of at least ${MIN_PASSWORD_LENGTH} characters` });
    fields.done();
    const { sessionToken } = await this.signIn.acceptLink(token, password, request.ip);
    const cookies = cookieNames(this.config.mode === 'production');
    setCookie(reply, cookies, cookies.session, sessionToken as string, this.config.dashboard.sessionAbsoluteSeconds);
    return answerSession(this.signIn, this.config, request, sessionToken, new Date(this.clock()));
  }
}
