import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedLoad } from './paced-load';

/**
 * A clock the test moves: half a millisecond at each turn of the event loop, so that time passes in the same steps whatever
 * the machine's speed. Answers come back within a few turns; a stall is measured on this clock, not on a real one.
 */
function turnClock(): { now: () => number; stop: () => void } {
  let ms = 0;
  let running = true;
  const tick = () => {
    ms += 0.5;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => ms, stop: () => (running = false) };
}

/** A server that answers every request, the odd ones 500, and holds one answer until `clock` has moved `stallMs` on. */
async function serverStallingOnce(stallAt: number, stallMs: number, clock: () => number): Promise<{ url: string; close: () => Promise<void> }> {
  let seen = 0;
  const server = http.createServer((request, response) => {
    const n = seen++;
    const answer = () => response.writeHead(n % 2 === 1 ? 500 : 200, { 'content-length': '2' }).end('ok');
    if (n !== stallAt) return answer();
    const releaseAt = clock() + stallMs;
    const wait = () => (clock() >= releaseAt ? answer() : setImmediate(wait));
    wait();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

it('offers requests at their own times and charges a stall to every request due during it, not only to the one it held', async () => {
  const clock = turnClock();
  // One connection, 200 a second: 200 warm-up requests, then 200 measured; the 260th is held 400 ms.
  const server = await serverStallingOnce(260, 400, clock.now);
  try {
    const figures = await pacedLoad(server.url, () => ({ method: 'GET', path: '/' }), 200, 1, 1, clock.now);
    expect(figures).toMatchObject({ offeredRps: 200, requests: 200, non2xx: 100 });
    // About 80 requests were due during the stall (400 ms at 200 a second): far more than 1 % of 200 waited behind it.
    expect(figures.p99Ms).toBeGreaterThan(200);
    expect(figures.senderLateP99Ms).toEqual(expect.any(Number));
  } finally {
    clock.stop();
    await server.close();
  }
}, 60_000);
