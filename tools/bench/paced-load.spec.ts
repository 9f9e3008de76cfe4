import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedLoad } from './paced-load';

/** A server that answers every request, one of them only after `stallMs`, and the odd ones 500. */
async function serverStallingOnce(stallAt: number, stallMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  let seen = 0;
  const server = http.createServer((request, response) => {
    const n = seen++;
    const answer = () => response.writeHead(n % 2 === 1 ? 500 : 200, { 'content-length': '2' }).end('ok');
    if (n === stallAt) setTimeout(answer, stallMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

it('offers requests at their own times and charges a stall to every request due during it, not only to the one it held', async () => {
  // One connection, 200 a second: 200 warm-up requests, then 200 measured; the 260th is held 400 ms.
  const server = await serverStallingOnce(260, 400);
  try {
    const figures = await pacedLoad(server.url, () => ({ method: 'GET', path: '/' }), 200, 1, 1);
    expect(figures).toMatchObject({ offeredRps: 200, requests: 200, non2xx: 100 });
    // About 80 requests were due during the stall (400 ms at 200 a second): far more than 1 % of 200 waited behind it.
    expect(figures.p99Ms).toBeGreaterThan(200);
    expect(figures.senderLateP99Ms).toEqual(expect.any(Number));
  } finally {
    await server.close();
  }
}, 30_000);
