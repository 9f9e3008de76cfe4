// The service as bench:server runs it: the same build and the same app, plus
// one route that serves the bank list exactly as GET /payment/merchant-api/banks
// does but without the signature check, so the check's cost is measured
// against the same work. Built beside dist/main.js; never deployed.
import { Controller, Get, Header } from '@nestjs/common';
import { BANK_CATALOGUE_JSON } from '../src/banks/banks.controller';
import { fail, runService } from '../src/service';
import { Public } from '../src/http/public.decorator';

@Controller('bench/unguarded-banks')
class UnguardedBanksController {
  @Get()
  @Public()
  @Header('content-type', 'application/json; charset=utf-8')
  list(): string {
    return BANK_CATALOGUE_JSON;
  }
}

runService([UnguardedBanksController]).catch((error: unknown) => fail('the service failed to start', error));
