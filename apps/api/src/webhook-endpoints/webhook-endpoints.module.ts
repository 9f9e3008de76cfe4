import { Module } from '@nestjs/common';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** The merchant's webhook endpoints, over the signed API. */
@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
