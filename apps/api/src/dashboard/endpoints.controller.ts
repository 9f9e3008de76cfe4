import { Controller, Get, HttpCode, Inject, Optional, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { DashboardComponents, FieldError } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { ApiException } from '../errors/api.exception';
import { EventOutbox } from '../events/event-outbox';
import { MerchantStore } from '../merchants/merchant-store';
import { MerchantsSync } from '../merchants/merchants-sync';
import { EndpointRefused, WebhookEndpointStore, type EndpointChanges, type EndpointView } from '../webhook-endpoints/webhook-endpoint-store';
import { ENDPOINT_ID_PATTERN, parsedSelection } from '../webhook-endpoints/webhook-endpoint-requests';
import { endpointDeliveries, resendDelivery, type DeliveryOutcome, type EndpointDelivery } from '../webhooks/endpoint-deliveries';
import { checkedMerchantUrl } from '../webhooks/webhook-target';
import { DashboardAudit } from './dashboard-audit';
import { FieldReader, jsonObject } from './dashboard-body';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';
import { actorOf } from './dashboard-audit';
import { OVERLAPS } from './keys.controller';

type Endpoint = DashboardComponents['schemas']['Endpoint'];
type EndpointWithSecret = DashboardComponents['schemas']['EndpointWithSecret'];
type Delivery = DashboardComponents['schemas']['Delivery'];

const DELIVERIES_PAGE = 25;
const OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failing', 'failed', 'pending'];
const EVENT_TYPE = /^[a-z_]+\.[a-z_.]+$/;
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;
/** The test event's type: sent to the one endpoint asked, whatever events it takes. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

/**
 * The merchant's webhook endpoints (tag Webhook endpoints), through the same
 * store as the signed API's, audited under the member; each endpoint's
 * delivery log, a resend, and a test event.
 */
@Controller('dashboard/api/webhook-endpoints')
export class EndpointsController {
  private readonly store: WebhookEndpointStore;

  constructor(
    merchantStore: MerchantStore,
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    private readonly outbox: EventOutbox,
    private readonly audit: DashboardAudit,
    @Optional() @Inject(MerchantsSync) private readonly sync: MerchantsSync | null,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {
    this.store = new WebhookEndpointStore(merchantStore);
  }

  @Get()
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'viewer'] })
  async list(@Req() request: FastifyRequest): Promise<{ data: Endpoint[] }> {
    return { data: (await this.store.list(sessionOf(request).merchantId, this.now())).map(endpointView) };
  }

  @Post()
  @HttpCode(201)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'] })
  async create(@Req() request: FastifyRequest): Promise<EndpointWithSecret> {
    const fields = new FieldReader(jsonObject(request), ['url', 'enabledEvents', 'description']);
    const url = this.url(fields.string('url', { max: 2048, describe: 'the https URL events are sent to' }));
    const events = selection(fields.list('enabledEvents'));
    const description = fields.string('description', { max: 256, optional: true, pattern: /^[^\p{Cc}\p{Cf}]*$/u, describe: 'at most 256 characters, without control characters' });
    fields.add(url.errors, events.errors);
    fields.done();
    const session = sessionOf(request);
    const made = await this.changed(request, (actor) => this.store.create(actor, session.merchantId, { url: url.url as string, enabledEvents: events.events, description: description || null, enabled: true }, this.config.webhookEndpointsPerMerchant, this.now()));
    return { ...endpointView(made.endpoint), secret: made.secret };
  }

  @Get(':id')
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'viewer'] })
  async get(@Param('id') id: string, @Req() request: FastifyRequest): Promise<Endpoint> {
    return endpointView(await this.ownEndpoint(sessionOf(request).merchantId, id));
  }

  @Patch(':id')
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'] })
  async update(@Param('id') id: string, @Req() request: FastifyRequest): Promise<Endpoint> {
    const body = jsonObject(request);
    const fields = new FieldReader(body, ['url', 'enabledEvents', 'description', 'enabled']);
    const changes: EndpointChanges = {};
    if (body.url !== undefined) {
      const url = this.url(fields.string('url', { max: 2048, describe: 'the https URL events are sent to' }));
      fields.add(url.errors);
      if (url.url) changes.url = url.url;
    }
    if (body.enabledEvents !== undefined) {
      const events = selection(fields.list('enabledEvents'));
      fields.add(events.errors);
      changes.enabledEvents = events.events;
    }
    if (body.description !== undefined) changes.description = body.description === null ? null : fields.string('description', { max: 256, pattern: /^[^\p{Cc}\p{Cf}]+$/u, describe: '1 to 256 characters without control characters, or null' });
    if (body.enabled !== undefined) changes.enabled = fields.boolean('enabled');
    if (Object.keys(body).length === 0) fields.add([{ field: 'body', code: 'required', message: 'Name at least one field to change: url, enabledEvents, description, enabled.' }]);
    fields.done();
    const session = sessionOf(request);
    return endpointView(await this.changed(request, (actor) => this.store.update(actor, session.merchantId, checkedId(id), changes, this.now())));
  }

  @Post(':id/roll-secret')
  @HttpCode(200)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'], freshFactor: true })
  async rollSecret(@Param('id') id: string, @Req() request: FastifyRequest): Promise<EndpointWithSecret> {
    const fields = new FieldReader(jsonObject(request), ['oldSecretExpiresIn']);
    const overlap = fields.oneOf('oldSecretExpiresIn', Object.keys(OVERLAPS) as Array<keyof typeof OVERLAPS>);
    fields.done();
    const session = sessionOf(request);
    const rolled = await this.changed(request, (actor) => this.store.rollSecret(actor, session.merchantId, checkedId(id), OVERLAPS[overlap], this.now()));
    return { ...endpointView(rolled.endpoint), secret: rolled.secret };
  }

  @Get(':id/deliveries')
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'viewer'] })
  async deliveries(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<{ data: Delivery[]; hasMore: boolean }> {
    const fields = new FieldReader(query, ['eventType', 'outcome', 'before']);
    const eventType = query.eventType === undefined ? undefined : fields.string('eventType', { max: 64, pattern: EVENT_TYPE, describe: 'an event type, such as payin.successful' });
    const outcome = query.outcome === undefined ? undefined : fields.oneOf('outcome', OUTCOMES);
    const before = query.before === undefined ? undefined : fields.string('before', { max: 80, pattern: EVENT_ID, describe: 'the cursor of the last delivery of the page before' });
    fields.done();
    const { merchantId } = sessionOf(request);
    await this.ownEndpoint(merchantId, id);
    const page = await endpointDeliveries(this.client, { merchantId, endpointId: id, ...(eventType ? { eventType } : {}), ...(outcome ? { outcome } : {}), ...(before ? { before } : {}), limit: DELIVERIES_PAGE });
    return { data: page.data.map(deliveryView), hasMore: page.hasMore };
  }

  @Post(':id/deliveries/:eventId/resend')
  @HttpCode(202)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'] })
  async resend(@Param('id') id: string, @Param('eventId') eventId: string, @Req() request: FastifyRequest): Promise<Delivery> {
    const session = sessionOf(request);
    await this.ownEndpoint(session.merchantId, id);
    if (!EVENT_ID.test(eventId)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'delivery', id: eventId.slice(0, 80) });
    await this.client.transaction(async (tx) => {
      const found = await resendDelivery(tx, this.storeClock, { merchantId: session.merchantId, endpointId: id, eventId, scheduledAttempts: this.config.webhooks.retryScheduleSeconds.length });
      if (!found) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'delivery', id: eventId });
      await this.audit.record(actorOf(session, request.ip), 'webhook-endpoint.resend', { subject: eventId, detail: { endpointId: id } }, tx);
    });
    return this.deliveryOf(session.merchantId, id, eventId);
  }

  @Post(':id/test')
  @HttpCode(202)
  @DashboardRoute({ roles: ['owner', 'admin', 'developer'] })
  async test(@Param('id') id: string, @Req() request: FastifyRequest): Promise<Delivery> {
    const session = sessionOf(request);
    const endpoint = await this.ownEndpoint(session.merchantId, id);
    if (endpoint.status !== 'enabled') throw new ApiException('DASHBOARD_CONFLICT', { why: `Endpoint ${id} is disabled, so it is sent nothing. Enable it first.` });
    const [event] = this.outbox.events({ merchantId: session.merchantId, objectType: 'webhook_endpoint', objectId: id, type: TEST_EVENT_TYPE, version: 1, occurredAt: this.now(), data: { id, url: endpoint.url, sentBy: session.email }, targets: [{ notifyUrl: endpoint.url, endpointId: id }] });
    if (!event) throw new Error('the outbox made no event for one target');
    await this.client.transaction(async (tx) => {
      await this.outbox.writeMany(tx, [event]);
      await this.audit.record(actorOf(session, request.ip), 'webhook-endpoint.test', { subject: event.id, detail: { endpointId: id } }, tx);
    });
    return this.deliveryOf(session.merchantId, id, event.id);
  }

  private async deliveryOf(merchantId: string, endpointId: string, eventId: string): Promise<Delivery> {
    const page = await endpointDeliveries(this.client, { merchantId, endpointId, eventId, limit: 1 });
    const found = page.data.find((d) => d.eventId === eventId);
    if (!found) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'delivery', id: eventId });
    return deliveryView(found);
  }

  private async ownEndpoint(merchantId: string, id: string): Promise<EndpointView> {
    const endpoint = ENDPOINT_ID_PATTERN.test(id) ? await this.store.get(merchantId, id, this.now()) : undefined;
    if (!endpoint) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'webhook endpoint', id: id.slice(0, 80) });
    return endpoint;
  }

  private url(raw: string): { url?: string; errors: FieldError[] } {
    if (raw === '') return { errors: [] };
    const result = checkedMerchantUrl('url', raw, { production: this.config.mode === 'production', allowLocalReceivers: this.config.webhooks.allowLocalReceivers });
    return 'error' in result ? { errors: [result.error] } : { url: result.url, errors: [] };
  }

  private async changed<T>(request: FastifyRequest, change: (actor: ReturnType<DashboardAudit['actorOf']>) => Promise<T>): Promise<T> {
    const session = sessionOf(request);
    let result: T;
    try {
      result = await change(this.audit.actorOf({ memberId: session.memberId, email: session.email, merchantId: session.merchantId, address: request.ip }));
    } catch (error) {
      if (!(error instanceof EndpointRefused)) throw error;
      if (error.refusal.refused === 'not_found') throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'webhook endpoint', id: request.url.split('/')[5] ?? '' });
      throw new ApiException('WEBHOOK_ENDPOINTS_LIMIT_REACHED', { merchantId: session.merchantId, limit: error.refusal.limit });
    }
    await this.sync?.refresh('changed in the dashboard');
    return result;
  }

  private now(): Date {
    return new Date(this.clock());
  }
}

function checkedId(id: string): string {
  if (!ENDPOINT_ID_PATTERN.test(id)) throw new ApiException('DASHBOARD_NOT_FOUND', { what: 'webhook endpoint', id: id.slice(0, 80) });
  return id;
}

function selection(list: string[] | undefined): { events: string[]; errors: FieldError[] } {
  if (list === undefined) return { events: [], errors: [] };
  const parsed = parsedSelection(list.join(','));
  return 'error' in parsed ? { events: [], errors: [parsed.error] } : { events: parsed.events, errors: [] };
}

export function endpointView(e: EndpointView): Endpoint {
  return { id: e.id, url: e.url, enabledEvents: e.enabledEvents, description: e.description, enabled: e.status === 'enabled', secretFingerprints: [...e.secrets].reverse().map((s) => s.fingerprint), createdAt: e.createdAt.toISOString() };
}

function deliveryView(d: EndpointDelivery): Delivery {
  return {
    eventId: d.eventId,
    eventType: d.eventType,
    createdAt: d.createdAt.toISOString(),
    outcome: d.outcome,
    attempts: d.attempts.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), durationMs: a.durationMs, statusCode: a.statusCode, error: a.error, responseExcerpt: a.responseExcerpt })),
    cursor: d.eventId,
  };
}
