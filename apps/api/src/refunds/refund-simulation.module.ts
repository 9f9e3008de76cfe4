import { Module } from '@nestjs/common';
import { RefundSimulationController } from './refund-simulation.controller';
import { RefundsModule } from './refunds.module';

/** The sandbox's test helper that answers for the refund provider; imported in sandbox mode only, so in production its path is unknown (404). */
@Module({ imports: [RefundsModule], controllers: [RefundSimulationController] })
export class RefundSimulationModule {}
