import { Module } from '@nestjs/common';
import { BanksController } from './banks.controller';

/** The bank catalogue, for payouts and account enquiry. */
@Module({ controllers: [BanksController] })
export class BanksModule {}
