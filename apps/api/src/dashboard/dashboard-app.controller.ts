import * as fs from 'node:fs';
import * as path from 'node:path';
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { StaticAsset } from '../docs/static-asset';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { Public } from '../http/public.decorator';

/**
 * The dashboard's policy: its scripts and styles from this origin only, no
 * inline script or style, calls to this origin only, and no framing.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** An asset name as Vite writes it: a name, its content hash, and an extension we serve. */
const ASSET_NAME = /^[A-Za-z0-9_-]+-[A-Za-z0-9_-]{8}\.(js|css|svg|png|ico|woff2)$/;

/**
 * Serves the dashboard's built app (apps/dashboard/dist): the assets, whose
 * names carry their hash, cached for a year; and for every page of the app,
 * its index.html, revalidated each time, so a new build is picked up at once.
 * Read once at boot: the folder is part of the deployed release.
 */
@Controller('dashboard')
export class DashboardAppController {
  private readonly index: StaticAsset | undefined;
  private readonly assets = new Map<string, StaticAsset>();

  constructor(@Inject(AppConfigToken) config: AppConfig) {
    const dir = config.dashboard.assetsDir;
    const indexFile = path.join(dir, 'index.html');
    if (!fs.existsSync(indexFile)) return;
    this.index = new StaticAsset('index.html', fs.readFileSync(indexFile), 'text/html; charset=utf-8');
    const assetsDir = path.join(dir, 'assets');
    for (const name of fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir) : []) {
      const type = CONTENT_TYPES[path.extname(name)];
      if (type && ASSET_NAME.test(name)) this.assets.set(name, new StaticAsset(name, fs.readFileSync(path.join(assetsDir, name)), type));
    }
  }

  @Get('assets/:file')
  @Public()
  async asset(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const asset = this.assets.get(file);
    if (!asset) return sendError(new ApiException('ROUTE_NOT_FOUND', {}), request, reply);
    await asset.send(request, reply, 'public, max-age=31536000, immutable');
  }

  @Get()
  @Public()
  root(@Res() reply: FastifyReply): void {
    void reply.redirect('/payment/dashboard/', 308);
  }

  @Get('*')
  @Public()
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.url.startsWith('/payment/dashboard/api/') || request.url.startsWith('/payment/dashboard/assets/')) return sendError(new ApiException('ROUTE_NOT_FOUND', {}), request, reply);
    if (!this.index) {
      void reply.status(503).header('content-type', 'text/plain; charset=utf-8').send('The dashboard is not built. Run `npm run build --workspace apps/dashboard` (npm start does it), or deploy with npm run deploy:build.\n');
      return;
    }
    void reply.headers({ 'content-security-policy': DASHBOARD_CSP, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'cross-origin-opener-policy': 'same-origin' });
    await this.index.send(request, reply, 'no-cache');
  }
}
