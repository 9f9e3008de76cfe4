import Fastify from 'fastify';
import { fastifyTrustProxy } from './http-server-options';

/** The client address Fastify reads, with TRUST_PROXY as the service gives it, for a request from `peer` carrying `forwardedFor`. */
async function clientAddress(trust: false | number | string, peer: string, forwardedFor?: string): Promise<string> {
  const fastify = Fastify({ trustProxy: fastifyTrustProxy(trust) });
  fastify.get('/', async (request) => request.ip);
  try {
    const answer = await fastify.inject({ method: 'GET', url: '/', remoteAddress: peer, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
    return answer.body;
  } finally {
    await fastify.close();
  }
}

// docs/operations.md's table of TRUST_PROXY, on the Fastify the service runs (which reads a bare hop count as trusting nothing).
describe('TRUST_PROXY as Fastify takes it', () => {
  it('ignores X-Forwarded-For when nothing is trusted', async () => {
    expect(await clientAddress(false, '10.0.0.5', '203.0.113.50, 198.51.100.7')).toBe('10.0.0.5');
  });

  it('takes the last address for one hop, whatever the client wrote before it', async () => {
    expect(await clientAddress(1, '10.0.0.5', '203.0.113.50, 198.51.100.7')).toBe('198.51.100.7');
    expect(await clientAddress(1, '10.0.0.5')).toBe('10.0.0.5');
  });

  it('takes the second address from the right for two hops', async () => {
    expect(await clientAddress(2, '10.0.0.5', '203.0.113.50, 198.51.100.7, 10.0.0.9')).toBe('198.51.100.7');
  });

  it('takes the right-most address not in a list of proxies', async () => {
    expect(await clientAddress('10.0.0.0/8, 127.0.0.1', '10.0.0.5', '203.0.113.50, 198.51.100.7, 10.0.0.9')).toBe('198.51.100.7');
    expect(await clientAddress('10.0.0.0/8', '192.0.2.1', '203.0.113.50')).toBe('192.0.2.1');
  });
});
