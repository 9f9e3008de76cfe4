import { Controller, Get, Header } from '@nestjs/common';
import { BANK_CATALOGUE } from './bank-catalogue';

/** The catalogue never changes while the service runs, so its JSON is written once, not on every request. */
export const BANK_CATALOGUE_JSON = JSON.stringify(BANK_CATALOGUE);

@Controller('merchant-api/banks')
export class BanksController {
  /** The `Bank[]` of the contract, as JSON text. */
  @Get()
  @Header('content-type', 'application/json; charset=utf-8')
  list(): string {
    return BANK_CATALOGUE_JSON;
  }
}
