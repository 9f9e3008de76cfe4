import * as fs from 'node:fs';
import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Public } from '../signing/public.decorator';
import { renderApiReference } from './api-reference';

@Controller()
export class DocsController {
  private readonly contract: string;
  private readonly page: string;

  constructor(@Inject(AppConfigToken) config: AppConfig) {
    this.contract = fs.readFileSync(config.contractPath, 'utf8');
    this.page = renderApiReference(this.contract);
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
  @Header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
  docs(): string {
    return this.page;
  }
}
