// The service as bench:server runs it: the same build and the same app, plus
// one route that serves the bank list exactly as GET /payment/merchant-api/banks
// does but without the signature check, so the check's cost is measured
// against the same work; and the same two as plain Fastify routes under the
// same hooks, so that Nest's own routing is measured by taking it away.
// BENCH_ABLATE (a comma-separated list, see src/http/ablations.ts) switches
// per-request components off for bench:server --ablate. Built beside
// dist/main.js, which reads no such variable; never deployed.
import { Controller, Get, Header } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { BANK_CATALOGUE_JSON } from '../src/banks/banks.controller';
import { parseAblations } from '../src/http/ablations';
import { PUBLIC_ROUTE, Public } from '../src/http/public.decorator';
import { switchOffBodyValidationForBench } from '../src/http/validate-body';
import { fail, runService } from '../src/service';

@Controller('bench/unguarded-banks')
class UnguardedBanksController {
  @Get()
  @Public()
  @Header('content-type', 'application/json; charset=utf-8')
  list(): string {
    return BANK_CATALOGUE_JSON;
  }
}

/** The bank list as Fastify routes: signed (the signature check runs on every route not marked public) and unguarded. */
function fastifyTwins(fastify: FastifyInstance): void {
  const send = async (_request: unknown, reply: { type(value: string): { send(body: string): unknown } }) => reply.type('application/json; charset=utf-8').send(BANK_CATALOGUE_JSON);
  fastify.get('/payment/bench/fastify-banks', send);
  fastify.get('/payment/bench/fastify-unguarded-banks', { config: { [PUBLIC_ROUTE]: true } }, send);
}

let ablate;
try {
  ablate = parseAblations(process.env.BENCH_ABLATE);
} catch (error) {
  fail('BENCH_ABLATE', error);
}
if (ablate?.has('validation')) switchOffBodyValidationForBench();
runService([UnguardedBanksController], { fastifyRoutes: fastifyTwins, ablate }).catch((error: unknown) => fail('the service failed to start', error));
