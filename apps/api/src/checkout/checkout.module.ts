import { Module } from '@nestjs/common';
import { GatewaysModule } from '../gateways/gateways.module';
import { PayinsModule } from '../payins/payins.module';
import { CheckoutController } from './checkout.controller';

/** The hosted checkout page customers pay a payin on. */
@Module({ imports: [PayinsModule, GatewaysModule], controllers: [CheckoutController] })
export class CheckoutModule {}
