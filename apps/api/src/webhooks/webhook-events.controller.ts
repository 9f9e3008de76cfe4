import { Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { SCHEMAS, type EventDeliveryLog } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { ApiException, validationFailed } from '../errors/api.exception';
import { VerifiedBody } from '../http/verified-body.decorator';
import { SqlWebhookEventRepository } from './sql-webhook-event.repository';
import { webhookEventToContract } from './webhook-event-view';

const EVENT_ID_PATTERN = new RegExp(SCHEMAS.EventId.pattern);

/** Sends one event again, whatever its state: what a merchant does once its receiver is fixed. The events of an object are listed by the object's own routes. */
@Controller('api')
export class WebhookEventsController {
  constructor(
    private readonly events: SqlWebhookEventRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Post('events/:eventId/redeliver')
  @HttpCode(202)
  async redeliver(@Param('eventId') eventId: string, @VerifiedBody() body: Record<string, unknown>, @Req() request: FastifyRequest): Promise<EventDeliveryLog> {
    const merchantId = (request.merchant as NonNullable<FastifyRequest['merchant']>).merchantId;
    if (!EVENT_ID_PATTERN.test(eventId)) throw validationFailed([{ field: 'eventId', code: 'pattern', message: 'eventId must be evt_ followed by 22 characters from [A-Za-z0-9_-], as in the events listing.' }]);
    const fields = Object.keys(body);
    if (fields.length > 0) throw validationFailed(fields.map((field) => ({ field, code: 'unknown', message: `${field} is not a field of this operation; send an empty JSON object, {}.` })));
    const scheduled = await this.events.redeliver(merchantId, eventId);
    const event = scheduled ? await this.events.find(merchantId, eventId) : undefined;
    if (!event) throw new ApiException('EVENT_NOT_FOUND', { eventId });
    return webhookEventToContract(event);
  }
}
