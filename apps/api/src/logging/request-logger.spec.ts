import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { requestLogger } from './request-logger';

/** A Fastify app logging as the service does, with every line it writes and a count of the child loggers pino made. */
function appLogging() {
  const lines: Array<Record<string, unknown>> = [];
  let children = 0;
  const logger = pino({ level: 'info', base: { service: 'payment-api' }, onChild: () => void children++ }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const fastify = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger, logController: new LogController({ disableRequestLogging: true }) });
  fastify.get('/quiet', async () => 'ok');
  fastify.get('/noisy', async (request) => {
    request.log.debug({ detail: 'below the level' }, 'not written');
    request.log.warn({ detail: 'written' }, 'a line of this request');
    request.log.error(new Error('boom'), 'an error of this request');
    return 'ok';
  });
  return { fastify, lines, childrenMade: () => children };
}

describe('request.log, made only when used', () => {
  it('makes no child logger for a request that writes no line through it', async () => {
    const { fastify, childrenMade } = appLogging();
    await fastify.ready();
    const before = childrenMade();
    expect((await fastify.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(childrenMade()).toBe(before);
    await fastify.close();
  });

  it('writes the lines of a request with its id bound, at the levels the logger writes, as a child would', async () => {
    const { fastify, lines, childrenMade } = appLogging();
    await fastify.ready();
    const before = childrenMade();
    const answer = await fastify.inject({ method: 'GET', url: '/noisy', headers: {} });
    expect(answer.statusCode).toBe(200);
    expect(childrenMade()).toBe(before + 1);
    const written = lines.filter((line) => line.reqId !== undefined);
    expect(written.map((line) => line.msg)).toEqual(['a line of this request', 'an error of this request']);
    expect(Object.keys(written[0] as object)).toEqual(['level', 'time', 'service', 'reqId', 'detail', 'msg']);
    expect(written[0]).toMatchObject({ level: 40, service: 'payment-api', reqId: 'req-1', detail: 'written' });
    // Fastify's serializers still apply: an error is written with its type, message and stack.
    expect(written[1]).toMatchObject({ level: 50, reqId: 'req-1', err: { type: 'Error', message: 'boom' } });
    await fastify.close();
  });
});
