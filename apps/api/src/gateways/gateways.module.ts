import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { PaymentGateways } from './payment-gateways';

/** The payment gateways the mode allows, for payin creation and the checkout page. */
@Module({
  providers: [{ provide: PaymentGateways, useFactory: (config: AppConfig) => PaymentGateways.forMode(config.mode), inject: [AppConfigToken] }],
  exports: [PaymentGateways],
})
export class GatewaysModule {}
