// SIGTERM on the built service: an in-flight request completes, a stalled one
// is cut after the grace period, and the process exits.
import { randomUUID } from 'node:crypto';
import { sign } from '@paysign/signing';
import { signedCall } from './support/api-client';
import { startBuiltService } from './support/built-service';
import { MERCHANT_A } from './support/credentials';
import { rawExchange } from './support/raw-http';

describe('graceful shutdown of the built service', () => {
  it('completes an in-flight request after SIGTERM, then exits', async () => {
    const service = await startBuiltService();
    // The sandbox account that never answers keeps this request in flight until the enquiry timeout.
    const inFlight = signedCall(service.baseUrl, { path: '/payment/merchant-api/account/inquiry', body: '{"bankCode":"058","accountNumber":"0000000049"}', credential: MERCHANT_A });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    service.child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(504);
    expect(response.json.code).toBe('UPSTREAM_TIMEOUT');
    expect(await service.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(`${service.baseUrl}/payment/health`)).rejects.toThrow();
    await service.dispose();
  });

  it('exits within the grace period while a request whose body never finishes holds its connection', async () => {
    const service = await startBuiltService({ SHUTDOWN_GRACE_MS: '1000', REQUEST_TIMEOUT_MS: '60000', HEADERS_TIMEOUT_MS: '60000' });
    const body = JSON.stringify({ amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: `stall-${randomUUID()}` });
    const { headers } = sign({ ...MERCHANT_A, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'POST', path: '/payment/api/payins', body });
    const head = ['POST /payment/api/payins HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${body.length}`, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`), '', ''].join('\r\n');
    const stalled = rawExchange(service.baseUrl, [head, body.slice(0, 5)], 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    service.child.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await stalled).closed).toBe(true);
    await service.dispose();
  });

  it('fails readiness first on SIGTERM, keeps serving through the drain, then closes, logging each phase', async () => {
    const service = await startBuiltService({ SHUTDOWN_DRAIN_MS: '1500' });
    expect((await fetch(`${service.baseUrl}/payment/health/ready`)).status).toBe(200);
    const started = Date.now();
    service.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));

    const ready = await fetch(`${service.baseUrl}/payment/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { lifecycle: 'draining' } });
    expect((await fetch(`${service.baseUrl}/payment/health/live`)).status).toBe(200);
    expect((await signedCall(service.baseUrl, { path: '/payment/merchant-api/banks', credential: MERCHANT_A })).status).toBe(200);

    expect(await service.exited).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const messages = service.logs().map((line) => String(line.msg));
    expect(messages).toEqual(
      expect.arrayContaining([
        'shutdown: readiness now fails, so load balancers stop sending traffic',
        'shutdown: draining before the server closes',
        'shutdown: closing the server; in-flight requests complete',
        'shutdown: stores closed',
        'shutdown: complete',
      ]),
    );
    await service.dispose();
  });
});
