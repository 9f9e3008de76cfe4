import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { ApiException } from '../errors/api.exception';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardOpenRoute } from './dashboard-route.decorator';
import { TOKEN_PATTERN, tokenHash } from './dashboard-tokens';
import { MIN_PASSWORD_LENGTH } from './password';
import { cookieNames, readCookie, setCookie } from './session-cookie';
import { answerSession } from './session.controller';
import { SignInService } from './sign-in.service';

const LINK_TOKEN = { pattern: TOKEN_PATTERN, max: 43, describe: 'the 43 characters after # in the link' };

/**
 * The one-time setup and invitation links (tag Links): what one is for, and
 * setting a password through it. The token always travels in the body: a
 * path is written to request logs, and whoever read a token there could use
 * the link first.
 */
@Controller('dashboard/api/links')
export class LinksController {
  constructor(
    private readonly signIn: SignInService,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Post('lookup')
  @HttpCode(200)
  @DashboardOpenRoute()
  async lookup(@Req() request: FastifyRequest): Promise<DashboardComponents['schemas']['Link']> {
    const fields = new FieldReader(jsonObject(request), ['token']);
    const token = fields.string('token', LINK_TOKEN);
    fields.done();
    const link = await this.signIn.members.usableLink(this.signIn.members.client, token, new Date(this.clock()));
    if (!link) throw new ApiException('DASHBOARD_LINK_INVALID', {});
    return { kind: link.kind, email: link.email, role: link.role, merchantName: link.merchantName, expiresAt: link.expiresAt.toISOString() };
  }

  @Post('accept')
  @HttpCode(200)
  @DashboardOpenRoute()
  async accept(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardComponents['schemas']['Session']> {
    const fields = new FieldReader(jsonObject(request), ['token', 'password']);
    const token = fields.string('token', LINK_TOKEN);
    const password = fields.string('password', { min: MIN_PASSWORD_LENGTH, max: 1024, describe: `a password of at least ${MIN_PASSWORD_LENGTH} characters` });
    fields.done();
    const cookies = cookieNames(this.config.mode === 'production');
    const old = readCookie(request, cookies.session);
    const { sessionToken } = await this.signIn.acceptLink(token, password, { address: request.ip, oldSessionHash: old && tokenHash(old) });
    setCookie(reply, cookies, cookies.session, sessionToken as string, this.config.dashboard.sessionAbsoluteSeconds);
    return answerSession(this.signIn, this.config, request, sessionToken, new Date(this.clock()));
  }
}
