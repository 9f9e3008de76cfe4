import { randomUUID } from 'node:crypto';
import { ContractValidator } from '@paysign/contracts/testing';
import type { SqlClient } from '../../../src/db/sql-client';
import { signedCall } from '../api-client';
import { MERCHANT_A, MERCHANT_B, type TestCredential } from '../credentials';
import { openPgliteFromTemplate } from '../pglite-template';
import { TestClock } from '../test-clock';
import { startTestApp, type TestApp } from '../test-app';
import { describeResponse, judgeAnswer } from './answer-oracle';
import { sendRaw, type RawRequest, type RawResponse } from './raw-request';

/** An answer slower than this is a hang: the service answers in milliseconds, and bank enquiries give up after ENQUIRY_TIMEOUT_MS (300 ms here). */
const ANSWER_TIMEOUT_MS = 5000;
const PINO_ERROR_LEVEL = 50;

/** What the suite's objects are known by, per path or query parameter name of the contract. */
export type RealIds = Readonly<Record<string, readonly string[]>>;

export interface OutboxCounts {
  events: number;
  /** Final payins that have a notifyUrl: each must have exactly one event. */
  finalPayinsWithReceiver: number;
  /** Events that repeat another's object and type. */
  duplicateEvents: number;
}

/**
 * The real service, in-process, on a clock that never moves (no payin
 * expires, no webhook falls due, no timestamp goes stale however long the
 * run), with rate limits out of the way so that bodies reach validation and
 * the stores, and a payin database the suite can count rows in.
 */
export class ServiceUnderFuzz {
  /** State-changing requests (not GET or HEAD) that were not refused with a 4xx: each may add one event, no more. */
  stateChangingNotRefused = 0;
  exchanges = 0;
  /** How many answers each kind of request had with each status ('none' for no answer): what a run reached, for its summary. */
  readonly statuses = new Map<string, Map<string, number>>();
  /** Statuses the contract does not list for an operation, answered with the error shape: gaps to report, not failures. */
  readonly undocumentedStatuses = new Set<string>();
  private readonly contract = new ContractValidator();

  private constructor(
    readonly api: TestApp,
    readonly clock: TestClock,
    private readonly database: SqlClient,
    readonly realIds: RealIds,
  ) {}

  static async start(): Promise<ServiceUnderFuzz> {
    const clock = new TestClock(Math.floor(Date.now() / 1000) * 1000);
    const database = await openPgliteFromTemplate();
    const api = await startTestApp(
      {
        RATE_LIMIT_PER_KEY_PER_SECOND: '100000',
        RATE_LIMIT_PER_KEY_BURST: '100000',
        RATE_LIMIT_ENQUIRY_PER_KEY_PER_MINUTE: '1000000',
        // Every case comes from 127.0.0.1: the per-address limit of the unsigned pages, where it exists, would soon answer them all with 429.
        RATE_LIMIT_PUBLIC_PER_ADDRESS_PER_MINUTE: '1000000',
        // Nonces expire by the clock, which stands still: a long run must not fill one key's share.
        NONCE_STORE_MAX_PER_KEY: '6000000',
        // A week, by a clock that stands still: fuzzed notifyUrls are never called, only stored.
        WEBHOOK_RETRY_SCHEDULE: '604800',
        // Paystack configured beside the sandbox, so that its webhook route exists and is fuzzed; its API is an address nothing listens on.
        PAYSTACK_SECRET_KEY: 'sk_test_fuzzsuite0123456789abcdef0123456789',
        PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
        // Fuzzed webhooks are refused (no case can sign as Paystack), and every case comes from 127.0.0.1: the per-address limits would soon answer them all with 429.
        RATE_LIMIT_REFUSED_PER_ADDRESS_PER_MINUTE: '1000000',
        RATE_LIMIT_PROVIDER_WEBHOOKS_PER_ADDRESS_PER_MINUTE: '1000000',
      },
      // A redelivery is due at once; it resolves no name, so nothing leaves this machine.
      { overrides: { clock: clock.now, storeClock: clock.now, payinStore: database, webhookResolver: async () => Promise.reject(new Error('the fuzz suite resolves no names')) } },
    );
    return new ServiceUnderFuzz(api, clock, database, await createFixtures(api, clock));
  }

  get host(): string {
    return new URL(this.api.baseUrl).host;
  }

  nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /**
   * Sends one request and judges its answer (see judgeAnswer); throws,
   * with the request and the answer, on the first problem.
   */
  async exchange(request: RawRequest, options: { htmlErrors: boolean; head?: string; label: string }): Promise<RawResponse | undefined> {
    const logsBefore = this.api.logs.length;
    const errorsLogged = () => this.api.logs.slice(logsBefore).filter((line) => (line.level as number) >= PINO_ERROR_LEVEL);
    // A failure logged while no answer comes is likely to stay unanswered: no need to wait out the whole timeout.
    const response = await sendRaw(this.api.baseUrl, request, { timeoutMs: ANSWER_TIMEOUT_MS, head: options.head, giveUp: () => errorsLogged().length > 0 });
    this.exchanges += 1;
    const counts = this.statuses.get(options.label) ?? new Map<string, number>();
    const status = String(response?.status ?? 'none');
    this.statuses.set(options.label, counts.set(status, (counts.get(status) ?? 0) + 1));
    if (!['GET', 'HEAD'].includes(request.method.toUpperCase()) && !(response && response.status >= 400 && response.status < 500)) this.stateChangingNotRefused += 1;
    const { problems, undocumentedStatus } = judgeAnswer(this.contract, {
      method: request.method,
      target: request.target,
      response,
      htmlErrors: options.htmlErrors,
      errorsLogged: errorsLogged(),
    });
    if (undocumentedStatus) this.undocumentedStatuses.add(undocumentedStatus);
    if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${describeRequest(request, options.head)}\nanswer: ${describeResponse(response)}`);
    return response;
  }

  /** What the run reached: the answers of each kind of request by status, and the contract's gaps. */
  summary(): string {
    const answers = [...this.statuses].map(([label, counts]) => `  ${label}: ${[...counts].sort().map(([status, n]) => `${status} ×${n}`).join(', ')}`);
    const gaps = [...this.undocumentedStatuses].map((gap) => `  ${gap}`);
    return [`${this.exchanges} requests; answers:`, ...answers, ...(gaps.length > 0 ? ['statuses the contract does not list for their operation:', ...gaps] : [])].join('\n');
  }

  async outboxCounts(): Promise<OutboxCounts> {
    const { rows } = await this.database.query<{ events: number | string; final_with_receiver: number | string; duplicates: number | string }>(
      `SELECT (SELECT count(*) FROM outbox_events) AS events,
              (SELECT count(*) FROM payins WHERE status <> 'PENDING' AND notify_url IS NOT NULL) AS final_with_receiver,
              (SELECT count(*) - count(DISTINCT (merchant_id, object_type, object_id, type)) FROM outbox_events) AS duplicates`,
    );
    const row = rows[0] as { events: number | string; final_with_receiver: number | string; duplicates: number | string };
    return { events: Number(row.events), finalPayinsWithReceiver: Number(row.final_with_receiver), duplicateEvents: Number(row.duplicates) };
  }

  async close(): Promise<void> {
    await this.api.close();
  }
}

/** A request as a failure report shows it: the head, and the body up to a point. */
function describeRequest(request: RawRequest, head?: string): string {
  const shown = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);
  const headText = head ?? `${request.method} ${request.target}\n${request.headers.map(([name, value]) => `${name}: ${value}`).join('\n')}`;
  return `request:\n${shown(JSON.stringify(headText), 2000)}\nbody: ${shown(JSON.stringify(Buffer.from(request.body ?? []).toString('utf8')), 1000)}`;
}

/**
 * Objects for the real IDs of path parameters: pending payins of merchant A
 * (some with a notifyUrl, one card only), a paid one with a webhook event,
 * and a pending payin of merchant B, which merchant A must not reach; and a
 * cursor of merchant A's listing.
 */
async function createFixtures(api: TestApp, clock: TestClock): Promise<RealIds> {
  const timestamp = () => Math.floor(clock.now() / 1000);
  const run = randomUUID().slice(0, 8);
  const create = async (credential: TestCredential, reference: string, extra: Record<string, string>) => {
    const body = JSON.stringify({ amount: 1500.5, currency: 'NGN', customerEmail: 'ada@example.com', reference, redirectUrl: 'https://shop.example.com/done', ...extra });
    const created = await signedCall(api.baseUrl, { path: '/payment/api/payins', body, credential, timestamp: timestamp() });
    if (created.status !== 201) throw new Error(`the fixture payin ${reference} was not created: ${created.status} ${JSON.stringify(created.json)}`);
    return { reference, token: new URL(created.json.checkoutUrl as string).pathname.split('/').pop() as string };
  };
  const notified = { notifyUrl: 'https://hooks.fuzz.invalid/payins' };
  const fixtures = [
    ...(await Promise.all([{ ...notified }, { ...notified, gateway: 'card' }, {}, {}].map((extra, i) => create(MERCHANT_A, `fuzz-pending-${i}-${run}`, extra)))),
    await create(MERCHANT_A, `fuzz-paid-${run}`, notified),
    await create(MERCHANT_B, `fuzz-of-b-${run}`, notified),
  ];
  const paid = `fuzz-paid-${run}`;
  const simulated = await signedCall(api.baseUrl, { path: `/payment/api/payins/${paid}/simulate`, body: '{"outcome":"successful"}', credential: MERCHANT_A, timestamp: timestamp() });
  if (simulated.status !== 200) throw new Error(`the fixture payin ${paid} was not paid: ${simulated.status}`);
  const events = await signedCall(api.baseUrl, { path: `/payment/api/payins/${paid}/events`, credential: MERCHANT_A, timestamp: timestamp() });
  const eventIds = (events.json.data as Array<{ id: string }>).map((event) => event.id);
  if (eventIds.length !== 1) throw new Error(`the paid fixture payin has ${eventIds.length} events, not 1`);
  const page = await signedCall(api.baseUrl, { path: '/payment/api/payins?limit=1', credential: MERCHANT_A, timestamp: timestamp() });
  const cursor = page.json.nextCursor as string;
  return { reference: fixtures.map((f) => f.reference), token: fixtures.map((f) => f.token), eventId: eventIds, cursor: [cursor] };
}
