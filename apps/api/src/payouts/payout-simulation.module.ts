import { Module } from '@nestjs/common';
import { PayoutSimulation } from './payout-simulation';
import { PayoutSimulationController } from './payout-simulation.controller';
import { PayoutsModule } from './payouts.module';

/** The sandbox's test helper that answers for the payout provider; imported in sandbox mode only, so in production its path is unknown (404). */
@Module({ imports: [PayoutsModule], controllers: [PayoutSimulationController], providers: [PayoutSimulation] })
export class PayoutSimulationModule {}
