import * as fs from 'node:fs';
import { Controller, Get, Header, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Public } from '../http/public.decorator';
import { ApiException } from '../errors/api.exception';
import { sendError } from '../errors/send-error';
import { ROUTES } from '../http/routes';
import { StaticAsset } from './static-asset';
import { DOCS_PAGE_CSP } from './markdown-page';
import { renderProtocolPage } from './protocol-page';
import { renderRunbooksPage } from './runbooks-page';

/**
 * The API reference: the contract rendered by Redoc's standalone bundle, which
 * the service serves itself, so that the page works offline and loads nothing
 * from another origin. Redoc writes its styles at runtime, hence the inline
 * styles the policy allows; scripts come from this origin only, and search,
 * which would run a worker from a blob, is off.
 */
const REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const REFERENCE_PAGE_OF = (REDOC_VERSIONED_NAME: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paysign payment service: API reference</title>
</head>
<body>
<div id="reference"><p>Loading the API reference. The contract itself is at <a href="${ROUTES.contract}">${ROUTES.contract}</a>, and the signing protocol at <a href="${ROUTES.protocol}">${ROUTES.protocol}</a>.</p></div>
<script src="${ROUTES.docsAsset(REDOC_VERSIONED_NAME)}"></script>
<script src="${ROUTES.docsAsset('reference.js')}"></script>
</body>
</html>
`;

const REFERENCE_SCRIPT = `Redoc.init('${ROUTES.contract}', {
  disableSearch: true,
  expandResponses: 'all',
  schemaExpansionLevel: 'all',
  jsonSampleExpandLevel: 'all',
  hideDownloadButton: false,
  showExtensions: false,
  sortEnumValuesAlphabetically: false,
  // The paysign curl example first, then the JSON payload sample.
  payloadSampleIdx: 1,
  theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' }, code: { fontFamily: 'ui-monospace, Menlo, Consolas, monospace' } } },
}, document.getElementById('reference'));
`;

@Controller()
export class DocsController {
  private readonly contract: string;
  private readonly redoc: StaticAsset;
  private readonly referencePage: string;
  private readonly protocolPage: string;
  private readonly runbooksPage: string;
  private readonly vectors: string;

  constructor(@Inject(AppConfigToken) config: AppConfig) {
    this.contract = fs.readFileSync(config.contractPath, 'utf8');
    this.redoc = new StaticAsset('redoc.standalone.js', Buffer.from(withoutRemoteLogo(fs.readFileSync(config.docs.redocBundlePath, 'utf8'))), 'text/javascript; charset=utf-8');
    this.referencePage = REFERENCE_PAGE_OF(this.redoc.versionedName);
    this.protocolPage = renderProtocolPage(fs.readFileSync(config.docs.protocolPath, 'utf8'));
    this.runbooksPage = renderRunbooksPage(fs.readFileSync(config.docs.runbooksPath, 'utf8'));
    this.vectors = fs.readFileSync(config.docs.vectorsPath, 'utf8');
  }

  @Get('openapi.yaml')
  @Public()
  @Header('content-type', 'application/yaml; charset=utf-8')
  openapi(): string {
    return this.contract;
  }

  @Get('docs')
  @Public()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', REFERENCE_CSP)
  @Header('x-content-type-options', 'nosniff')
  reference(): string {
    return this.referencePage;
  }

  /**
   * Redoc's bundle (918 KiB): by the versioned name the page links to, cached
   * for good (a new build is a new name); by its plain name, revalidated.
   */
  @Get('docs/assets/:file')
  @Public()
  async redocBundle(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (file === this.redoc.versionedName) return this.redoc.send(request, reply, 'public, max-age=31536000, immutable');
    if (file === 'redoc.standalone.js') return this.redoc.send(request, reply, 'public, no-cache');
    if (file === 'reference.js') {
      void reply.headers({ 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' }).send(REFERENCE_SCRIPT);
      return;
    }
    sendError(new ApiException('ROUTE_NOT_FOUND', {}), request, reply);
  }

  @Get('docs/protocol')
  @Public()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DOCS_PAGE_CSP)
  @Header('x-content-type-options', 'nosniff')
  protocol(): string {
    return this.protocolPage;
  }

  /** What to do for each alert and each incident; `#<alert name in lower case>` is the alert's section. */
  @Get('docs/runbooks')
  @Public()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DOCS_PAGE_CSP)
  @Header('x-content-type-options', 'nosniff')
  runbooks(): string {
    return this.runbooksPage;
  }

  @Get('docs/vectors.json')
  @Public()
  @Header('content-type', 'application/json; charset=utf-8')
  vectorsFile(): string {
    return this.vectors;
  }
}

/**
 * Redoc's sidebar shows its vendor's logo from cdn.redoc.ly, the one request
 * its bundle makes to another origin. An empty data: image takes its place
 * (the link text stays), so the page loads nothing from elsewhere.
 */
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
export function withoutRemoteLogo(bundle: string): string {
  if (!bundle.includes(REMOTE_LOGO)) throw new Error(`Redoc's bundle no longer loads ${REMOTE_LOGO}: check what it loads from other origins before serving it`);
  return bundle.split(REMOTE_LOGO).join('data:,');
}
