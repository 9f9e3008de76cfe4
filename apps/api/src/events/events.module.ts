import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { StoreClock } from '../db/store-clock';
import { EventOutbox } from './event-outbox';

/** The events outbox every feature writes its events to, in its own transactions. */
@Module({
  providers: [
    {
      provide: EventOutbox,
      useFactory: (config: AppConfig, storeClock: StoreClock) => new EventOutbox({ firstAttemptDelayMs: (config.webhooks.retryScheduleSeconds[0] ?? 0) * 1000, storeClock }),
      inject: [AppConfigToken, StoreClock],
    },
  ],
  exports: [EventOutbox],
})
export class EventsModule {}
