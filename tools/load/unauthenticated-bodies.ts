// Sends unauthenticated requests that each declare and send a 1 MB body, and
// reports the service's RSS before, at its peak and after, read from /proc/<pid>/status.
// Targets loopback only, sends a bounded number of requests, and stops by itself.
//   npm run -s load:unauthenticated-bodies -- --pid <service pid> [--url http://127.0.0.1:3000] [--count 200] [--concurrency 50]
import * as fs from 'node:fs';
import * as net from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { url: { type: 'string', default: 'http://127.0.0.1:3000' }, pid: { type: 'string' }, count: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '50' } },
});
const url = new URL(values.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('This tool targets loopback only.');
const BODY_BYTES = 1_048_576;
const body = Buffer.alloc(BODY_BYTES, 0x20);
const head = [`POST /payment/api/payins HTTP/1.1`, `Host: ${url.host}`, 'Content-Type: application/json', `Content-Length: ${BODY_BYTES}`, '', ''].join('\r\n');

function rssMb(pid: string | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

/** One request: the head, then the whole body; resolves with the status line when the service answers and closes. */
function send(): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''));
    let response = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body);
    });
    socket.on('data', (chunk: Buffer) => {
      response += chunk.toString('latin1');
      // The answer's head is all this tool needs; a service that waits for the body to finish still has to read it all first.
      if (response.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(response.split('\r\n', 1)[0] || 'no answer');
    });
  });
}

async function main(): Promise<void> {
  const count = Number(values.count);
  const concurrency = Number(values.concurrency);
  const before = rssMb(values.pid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(values.pid);
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 50);
  const started = Date.now();
  const statuses = new Map<string, number>();
  for (let sent = 0; sent < count; sent += concurrency) {
    const answers = await Promise.all(Array.from({ length: Math.min(concurrency, count - sent) }, send));
    for (const answer of answers) statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
  }
  clearInterval(sampler);
  const after = rssMb(values.pid);
  const result = { requests: count, declaredBytesEach: BODY_BYTES, answers: Object.fromEntries(statuses), seconds: (Date.now() - started) / 1000, rssBeforeMb: before, rssPeakMb: peak, rssAfterMb: after };
  console.log(`${count} unauthenticated requests of ${BODY_BYTES} bytes in ${result.seconds} s: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
  if (before !== undefined) console.log(`service RSS: ${before} MB before, ${peak} MB at peak, ${after} MB after`);
  console.log(JSON.stringify(result));
}

void main();
