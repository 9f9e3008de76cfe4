import { Module } from '@nestjs/common';
import { PayinsModule } from './payins.module';
import { SandboxSimulationController } from './sandbox-simulation.controller';

/** The sandbox's test helper that moves a payin as a payment would; imported in sandbox mode only, so in production its path is unknown (404). */
@Module({ imports: [PayinsModule], controllers: [SandboxSimulationController] })
export class SandboxSimulationModule {}
