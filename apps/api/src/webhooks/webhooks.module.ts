import { Inject, Injectable, Module, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import { SqlClient } from '../db/sql-client';
import { StoreClock } from '../db/store-clock';
import { JobRunner } from '../jobs/job-runner';
import { ServiceLogger } from '../logging/logger';
import { MerchantRegistry } from '../merchants/merchant-registry';
import { ServiceMetrics } from '../metrics/service-metrics';
import { SqlWebhookEventRepository } from './sql-webhook-event.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEventsController } from './webhook-events.controller';
import { WebhookResolver, type Resolver } from './webhook-target';

/** Claims due deliveries on every instance, as the `webhook-delivery` job, and fails events with no attempt left and deletes ended events past retention, as `webhook-retention`; at shutdown, cuts the deliveries in flight, whose leases then run out. */
@Injectable()
class WebhookDelivery implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly events: SqlWebhookEventRepository,
    private readonly jobs: JobRunner,
    private readonly metrics: ServiceMetrics,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const { pollIntervalMs, retentionIntervalMs, retentionDays, retentionBatchSize } = this.config.webhooks;
    this.jobs.add({ name: 'webhook-delivery', intervalMs: pollIntervalMs, run: () => this.dispatcher.claim() });
    this.jobs.add({
      name: 'webhook-retention',
      intervalMs: retentionIntervalMs,
      run: async () => {
        await this.events.failSpent();
        return { again: (await this.events.deleteEnded(retentionDays, retentionBatchSize)) === retentionBatchSize };
      },
    });
    this.metrics.watchWebhookQueue(() => this.events.queueState());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher.stop();
  }
}

/** Delivers the events outbox to merchants' receivers, and lets merchants send an event again. */
@Module({
  controllers: [WebhookEventsController],
  providers: [
    {
      provide: SqlWebhookEventRepository,
      useFactory: (client: SqlClient, storeClock: StoreClock, config: AppConfig) => new SqlWebhookEventRepository(client, storeClock, config.webhooks.retryScheduleSeconds.length),
      inject: [SqlClient, StoreClock, AppConfigToken],
    },
    {
      provide: WebhookDispatcher,
      useFactory: (events: SqlWebhookEventRepository, merchants: MerchantRegistry, config: AppConfig, clock: Clock, logger: Logger, metrics: ServiceMetrics, resolve: Resolver, jobs: JobRunner) =>
        // A delivery that ends frees a slot: claim again at once, rather than after the poll, while events wait.
        new WebhookDispatcher({ events, merchants, settings: config.webhooks, clock, logger, metrics, resolve, onSlotFreed: () => jobs.wake('webhook-delivery') }),
      inject: [SqlWebhookEventRepository, MerchantRegistry, AppConfigToken, Clock, ServiceLogger, ServiceMetrics, WebhookResolver, JobRunner],
    },
    WebhookDelivery,
  ],
  exports: [SqlWebhookEventRepository],
})
export class WebhooksModule {}
