import { Controller, Get } from '@nestjs/common';
import type { Bank } from '@paysign/contracts';
import { BANK_CATALOGUE } from './bank-catalogue';

@Controller('merchant-api/banks')
export class BanksController {
  @Get()
  list(): readonly Bank[] {
    return BANK_CATALOGUE;
  }
}
