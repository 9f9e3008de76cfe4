import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { SCHEMAS, type PayinEvent, type WebhookEvent, type WebhookEventList } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { ApiException, storeUnavailable, validationFailed } from '../errors/api.exception';
import { VerifiedBody } from '../http/verified-body.decorator';
import { checkedReference } from '../payins/payins.controller';
import { PayinsService } from '../payins/payins.service';
import { SqlWebhookEventRepository, type EventWithAttempts } from './sql-webhook-event.repository';

const EVENT_ID_PATTERN = new RegExp(SCHEMAS.EventId.pattern);

/** What a merchant needs to debug its receiver: every event of a payin with every attempt, and a way to send one again. */
@Controller('api')
export class WebhookEventsController {
  constructor(
    private readonly payins: PayinsService,
    private readonly events: SqlWebhookEventRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get('payins/:reference/events')
  async list(@Param('reference') reference: string, @Req() request: FastifyRequest): Promise<WebhookEventList> {
    const merchantId = (request.merchant as NonNullable<FastifyRequest['merchant']>).merchantId;
    // Reading the payin first answers 404 for another merchant's, and settles an expired one (whose event then exists).
    await this.payins.find({ merchantId, reference: checkedReference(reference) });
    const events = await this.store(() => this.events.listOfPayin(merchantId, reference));
    return { data: events.map(toContract) };
  }

  @Post('events/:eventId/redeliver')
  @HttpCode(202)
  async redeliver(@Param('eventId') eventId: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<WebhookEvent> {
    const merchantId = (request.merchant as NonNullable<FastifyRequest['merchant']>).merchantId;
    if (!EVENT_ID_PATTERN.test(eventId)) throw validationFailed([{ field: 'eventId', code: 'pattern', message: 'eventId must be evt_ followed by 22 characters from [A-Za-z0-9_-], as in the events listing.' }]);
    const fields = Object.keys(body);
    if (fields.length > 0) throw validationFailed(fields.map((field) => ({ field, code: 'unknown', message: `${field} is not a field of this operation; send an empty JSON object, {}.` })));
    const scheduled = await this.store(() => this.events.redeliver(merchantId, eventId, new Date(this.clock())));
    const event = scheduled ? await this.store(() => this.events.find(merchantId, eventId)) : undefined;
    if (!event) throw new ApiException('EVENT_NOT_FOUND', { eventId });
    return toContract(event);
  }

  private async store<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch {
      throw storeUnavailable('payin store');
    }
  }
}

function toContract(event: EventWithAttempts): WebhookEvent {
  return {
    id: event.id,
    type: event.type,
    reference: event.reference,
    notifyUrl: event.notifyUrl,
    createdAt: event.createdAt.toISOString(),
    status: event.status,
    nextAttemptAt: event.status === 'pending' ? event.nextAttemptAt.toISOString() : null,
    attempts: event.attempts,
    payload: JSON.parse(event.payload) as PayinEvent,
  };
}
