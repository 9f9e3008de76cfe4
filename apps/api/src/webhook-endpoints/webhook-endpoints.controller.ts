import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FieldError, WebhookEndpoint, WebhookEndpointList, WebhookEndpointWithSecret } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { validationFailed } from '../errors/api.exception';
import { callerOf } from '../http/caller';
import { validateBody } from '../http/validate-body';
import { VerifiedBody } from '../http/verified-body.decorator';
import { checkedMerchantUrl } from '../webhooks/webhook-target';
import {
  CREATE_ENDPOINT_FIELDS,
  CreateWebhookEndpointDto,
  DEFAULT_ROLL_EXPIRES_IN_SECONDS,
  ENDPOINT_ID_PATTERN,
  parsedSelection,
  ROLL_SECRET_FIELDS,
  RollWebhookEndpointSecretDto,
  UPDATE_ENDPOINT_FIELDS,
  UpdateWebhookEndpointDto,
} from './webhook-endpoint-requests';
import { WebhookEndpointsService } from './webhook-endpoints.service';

@Controller('api/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  @Post()
  async create(@VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<WebhookEndpointWithSecret> {
    const url = this.checkedUrl(body.url);
    const selection = typeof body.enabledEvents === 'string' ? parsedSelection(body.enabledEvents) : undefined;
    const input = validateBody(CreateWebhookEndpointDto, CREATE_ENDPOINT_FIELDS, body, [...url.errors, ...(selection && 'error' in selection ? [selection.error] : [])]);
    const created = await this.endpoints.create(callerOf(request), {
      url: url.url ?? input.url,
      enabledEvents: selection && 'events' in selection ? selection.events : [],
      description: input.description ?? null,
      enabled: input.enabled ?? true,
    });
    void reply.status(201).header('Location', `/payment/api/webhook-endpoints/${created.id}`);
    return created;
  }

  @Get()
  async list(@Req() request: FastifyRequest): Promise<WebhookEndpointList> {
    return { data: await this.endpoints.list(callerOf(request)) };
  }

  @Get(':id')
  async get(@Param('id') id: string, @Req() request: FastifyRequest): Promise<WebhookEndpoint> {
    return this.endpoints.get(callerOf(request), checkedId(id));
  }

  @Patch(':id')
  async update(@Param('id') id: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<WebhookEndpoint> {
    const checked = checkedId(id);
    const url = body.url === undefined ? { errors: [] } : this.checkedUrl(body.url);
    const selection = typeof body.enabledEvents === 'string' ? parsedSelection(body.enabledEvents) : undefined;
    const empty: FieldError[] = Object.keys(body).length === 0 ? [{ field: 'body', code: 'required', message: `Name at least one field to change: ${UPDATE_ENDPOINT_FIELDS.join(', ')}.` }] : [];
    const input = validateBody(UpdateWebhookEndpointDto, UPDATE_ENDPOINT_FIELDS, body, [...empty, ...url.errors, ...(selection && 'error' in selection ? [selection.error] : [])]);
    return this.endpoints.update(callerOf(request), checked, {
      ...(url.url !== undefined ? { url: url.url } : {}),
      ...(selection && 'events' in selection ? { enabledEvents: selection.events } : {}),
      ...(input.description !== undefined ? { description: input.description === '' ? null : input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    });
  }

  @Delete(':id')
  @HttpCode(200)
  async delete(@Param('id') id: string, @Req() request: FastifyRequest): Promise<{ id: string; deleted: true }> {
    return this.endpoints.delete(callerOf(request), checkedId(id));
  }

  @Post(':id/roll-secret')
  @HttpCode(200)
  async rollSecret(@Param('id') id: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<WebhookEndpointWithSecret> {
    const checked = checkedId(id);
    const input = validateBody(RollWebhookEndpointSecretDto, ROLL_SECRET_FIELDS, body);
    return this.endpoints.rollSecret(callerOf(request), checked, input.expiresIn ?? DEFAULT_ROLL_EXPIRES_IN_SECONDS);
  }

  /** The URL checked as a payin's notifyUrl is: normalised, and refused where webhooks are never sent. */
  private checkedUrl(raw: unknown): { url?: string; errors: FieldError[] } {
    if (typeof raw !== 'string') return { errors: [] };
    const result = checkedMerchantUrl('url', raw, { production: this.config.mode === 'production', allowLocalReceivers: this.config.webhooks.allowLocalReceivers });
    return 'error' in result ? { errors: [result.error] } : { url: result.url, errors: [] };
  }
}

/** An endpoint id of the contract's form; any other is refused as a field error, never looked up. */
function checkedId(id: string): string {
  if (!ENDPOINT_ID_PATTERN.test(id)) throw validationFailed([{ field: 'id', code: 'pattern', message: 'id must be an endpoint id as create answered it: we_ and 22 letters, digits, _ or -.' }]);
  return id;
}
