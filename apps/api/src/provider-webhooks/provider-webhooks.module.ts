import { Module } from '@nestjs/common';
import { PayinsModule } from '../payins/payins.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { PaystackWebhooksController } from './paystack-webhooks.controller';

/** The upstream provider's webhooks: present only when a seam selects the provider (the app module decides). */
@Module({ imports: [PayinsModule, PayoutsModule], controllers: [PaystackWebhooksController] })
export class ProviderWebhooksModule {}
