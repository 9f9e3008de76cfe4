import { Module } from '@nestjs/common';
import { PayinsModule } from '../payins/payins.module';
import { CheckoutController } from './checkout.controller';

/** The hosted checkout page customers pay a payin on. */
@Module({ imports: [PayinsModule], controllers: [CheckoutController] })
export class CheckoutModule {}
