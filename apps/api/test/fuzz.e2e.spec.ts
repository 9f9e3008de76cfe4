// Fuzzes every operation of the contract (read from openapi/payment-api.yaml
// when the suite starts, so a new route is fuzzed without editing this file),
// the hosted checkout as a customer goes through it, the docs routes, and
// malformed HTTP, against the real service in-process. Every answer must be
// free of 5xx and in the contract's shape (support/fuzz/answer-oracle.ts);
// afterwards the service must still be ready, and the events outbox must hold
// no more than the changes that were made.
//
// `npm test` makes a short seeded run. `npm run fuzz -- --runs 5000` makes a
// longer one; a failure prints its seed, its path and the shrunk case, and
// `npm run fuzz -- --seed S --path P -t "<test name>"` replays it.
import fc from 'fast-check';
import { ROUTES } from '../src/http/routes';
import { runCheckoutFlow, checkoutFlowPlan, type CheckoutFlowPlan } from './support/fuzz/checkout-flow';
import { contractOperations, fillTemplate, type ContractOperation } from './support/fuzz/contract-operations';
import { fuzzSettings } from './support/fuzz/fuzz-settings';
import { garbledRequest } from './support/fuzz/garbled-http';
import { operationRequest, toRawRequest } from './support/fuzz/operation-requests';
import { ServiceUnderFuzz, type OutboxCounts } from './support/fuzz/service-under-fuzz';

const settings = fuzzSettings();
const operations = contractOperations();

/** Routes outside the contract that the service serves: the API reference, the contract itself, the protocol page, its vectors, the runbooks, and metrics. */
const UNDOCUMENTED_ROUTES: ContractOperation[] = [ROUTES.docs, ROUTES.protocol, ROUTES.vectors, ROUTES.runbooks, ROUTES.contract, ROUTES.docsAsset('reference.js'), ROUTES.docsAsset('redoc.standalone.js'), ROUTES.metrics].map(
  (template) => ({ operationId: template, method: 'GET', template, signed: false, pathParameters: [], queryParameters: [] }),
);

/** One property per operation, plus the checkout flow, the routes outside the contract and malformed HTTP: the runs are shared among them. */
const PROPERTIES = operations.length + 3;
const RUNS_EACH = Math.max(1, Math.ceil(settings.runs / PROPERTIES));
const PROPERTY_TIMEOUT_MS = 120_000 + RUNS_EACH * 2_000;

/**
 * A redirectUrl outside Latin-1 must not break the redirect after payment
 * (a Location header carries Latin-1 only): the flow always tries one first,
 * whatever the seed.
 */
const NON_LATIN1_REDIRECT: CheckoutFlowPlan = {
  payin: { redirectUrl: 'https://shop.example.com/完了', customerEmail: 'ada@example.com' },
  open: { query: '', headers: [] },
  submit: { csrf: 'from the page', cookie: 'from the page', fields: [['action', 'confirm_transfer']], plusForSpace: false, contentType: 'application/x-www-form-urlencoded' },
  again: false,
};

let service: ServiceUnderFuzz;
let outboxBefore: OutboxCounts;
let casesTried = 0;
let requestsMade = 0;
const nextRequestId = () => `fuzz-${(requestsMade += 1)}`;

// Started as the file loads, outside any test or hook. A promise the service
// leaves rejected with no handler is pinned by jest on the test or hook whose
// async context created it, here the server's; from a hook it would fail every
// test of the file. This way it fails the file once, and each case is still
// judged by its own answer (a case that causes one gets no answer).
const starting = ServiceUnderFuzz.start();
beforeAll(async () => {
  service = await starting;
  outboxBefore = await service.outboxCounts();
}, 60_000);
afterAll(async () => {
  // npm run fuzz says what the run reached; npm test stays quiet.
  if (process.env.FUZZ_RUNS) console.info(`fuzz: ${casesTried} cases, seed ${settings.seed}\n${service.summary()}`);
  await service?.close();
});

/** Runs a property with the suite's seed and runs; on failure, the report says how to replay it. */
async function check<T>(name: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, examples: T[] = []): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      casesTried += 1;
      await predicate(value);
    }),
    { seed: settings.seed, numRuns: RUNS_EACH, ...(settings.path ? { path: settings.path } : {}), examples: examples.map((e) => [e] as [T]) },
  );
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${fc.defaultReportMessage(details)}\n\n${cause}\n\nReplay it: npm run fuzz -- --seed ${details.seed} --path "${details.counterexamplePath}" -t "${name}"`);
  }
}

describe('fuzzed requests to the service', () => {
  it.each(operations.map((operation) => [`${operation.method} ${operation.template}`, operation] as const))(
    '%s answers every generated request without a 5xx, as the contract documents',
    async (name, operation) => {
      await check(`${name} answers`, operationRequest(operation, service.realIds), async (plan) => {
        const request = toRawRequest(plan, operation, { host: service.host, nowSeconds: service.nowSeconds(), requestId: nextRequestId() });
        await service.exchange(request, { htmlErrors: operation.template.startsWith('/payment/checkout/'), label: name });
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'the hosted checkout answers a customer who creates, opens and submits odd payins and forms without a 5xx',
    async () => {
      await check(
        'the hosted checkout answers',
        checkoutFlowPlan,
        async (plan) => {
          await runCheckoutFlow(service, plan, nextRequestId());
        },
        [NON_LATIN1_REDIRECT],
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'the routes outside the contract (docs, contract, metrics) answer odd requests without a 5xx, errors as the Error body',
    async () => {
      const route = fc.constantFrom(...UNDOCUMENTED_ROUTES).chain((operation) => operationRequest(operation, {}).map((plan) => ({ operation, plan })));
      await check('the routes outside the contract answer', route, async ({ operation, plan }) => {
        await service.exchange(toRawRequest(plan, operation, { host: service.host, nowSeconds: service.nowSeconds(), requestId: nextRequestId() }), { htmlErrors: false, label: 'outside the contract' });
      });
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'malformed HTTP is answered with the documented error body, never a 5xx',
    async () => {
      const targets = [...operations.map((o) => fillTemplate(o.template, Object.fromEntries(o.pathParameters.map((p) => [p.name, service.realIds[p.name]?.[0] ?? 'x'])))), ...UNDOCUMENTED_ROUTES.map((r) => r.template)];
      await check('malformed HTTP is answered', garbledRequest(targets, service.host), async ({ head, body }) => {
        const [method = '', target = ''] = head.split(' ');
        await service.exchange({ method, target, headers: [], body: Buffer.from(body, 'latin1') }, { htmlErrors: target.includes('/payment/checkout/'), head, label: 'malformed HTTP' });
      });
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('the service after the fuzzing', () => {
  it('is still ready', async () => {
    const ready = await fetch(`${service.api.baseUrl}/payment/health/ready`);
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('added no event to the outbox beyond one per state-changing request it did not refuse, and exactly one per final payin with a notifyUrl', async () => {
    const after = await service.outboxCounts();
    if (process.env.FUZZ_RUNS) console.info(`fuzz: the outbox grew by ${after.events - outboxBefore.events} events; ${service.stateChangingNotRefused} state-changing requests were not refused`);
    expect(after.events - outboxBefore.events).toBeLessThanOrEqual(service.stateChangingNotRefused);
    expect({ events: after.events, duplicateEvents: after.duplicateEvents }).toEqual({ events: after.finalPayinsWithReceiver, duplicateEvents: 0 });
  });
});
