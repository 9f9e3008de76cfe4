import { Module } from '@nestjs/common';
import { PayinsModule } from '../payins/payins.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { RefundsModule } from '../refunds/refunds.module';
import { ProviderWebhooksController } from './provider-webhooks.controller';

/** The upstream providers' webhooks: present only where a configured provider takes webhooks (the app module decides). */
@Module({ imports: [PayinsModule, PayoutsModule, RefundsModule], controllers: [ProviderWebhooksController] })
export class ProviderWebhooksModule {}
