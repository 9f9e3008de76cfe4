// The Paystack adapters against the example responses of Paystack's own
// documentation (tools/fake-paystack/fixtures, sources in SOURCES.md), served
// over real HTTP, and the boundary's client: retries, the circuit, a refused key.
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import pino from 'pino';
import { BANK_CATALOGUE } from '../../banks/bank-catalogue';
import { ServiceMetrics } from '../../metrics/service-metrics';
import { ProviderCircuits } from '../../upstream/provider-circuits';
import { ProviderUnavailable, UpstreamClient } from '../../upstream/upstream-client';
import { PaystackAccountNameProvider } from './paystack-account-names';
import { PaystackApi } from './paystack-api';
import { banksWithoutPaystackCode, paystackBankCode } from './paystack-banks';
import { declineReasonOf, PaystackGateway, transactionStatusOf } from './paystack-gateway';
import { answerOf, failureReasonOf, PaystackPayoutTransfers, paystackReference, providerReferenceOf } from './paystack-payout-transfers';
import { paysInFull } from '../ports/pays-in-full';
import type { SqlClient } from '../../db/sql-client';

const FIXTURES = path.resolve(__dirname, '../../../../../tools/fake-paystack/fixtures');
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const KEY = 'sk_test_documentedexamples0123456789';

/** A server answering each path with a documented example: `answers[path] = [status, fixture]`. */
async function serve(answers: Record<string, [number, Record<string, unknown>]>): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    seen.push(`${request.method} ${pathname} ${request.headers.authorization === `Bearer ${KEY}` ? 'authorized' : 'unauthorized'}`);
    const [status, body] = answers[pathname] ?? [404, { status: false, message: 'Entity not found' }];
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** Closes a server and the keep-alive connections fetch holds to it. */
function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

function apiAt(url: string, options: { retries?: number; failures?: number } = {}) {
  const metrics = new ServiceMetrics();
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  // One merchant and one bank open a circuit here: these tests are of the client; provider-circuits.spec.ts says who may open one.
  const circuits = new ProviderCircuits({ failures: options.failures ?? 5, openSeconds: 30, windowSeconds: 60, sources: 1, enquiryBanks: 1 }, Date.now);
  const client = new UpstreamClient({ provider: 'paystack', baseUrl: url, headers: { authorization: `Bearer ${KEY}` }, timeoutMs: 2000, retries: options.retries ?? 0, circuits, metrics, logger });
  return { api: new PaystackApi(client, KEY), metrics, logs, circuits };
}

const signal = () => AbortSignal.timeout(5000);
/** A direct call to Paystack's API, as made for a merchant. */
const caller = () => ({ signal: signal(), merchantId: 'MCH-A' });

describe('the Paystack adapters on the documented example responses', () => {
  let documented: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    documented = await serve({
      '/bank/resolve': [200, fixture('bank-resolve.200.json')],
      '/transferrecipient': [200, fixture('transferrecipient-create.200.json')],
      '/transfer': [200, fixture('transfer-initiate.200.json')],
      '/transfer/verify/acv_9ee55786-2323-4760-98e2-6380c9cb3f67': [200, fixture('transfer-verify.200.json')],
      '/transfer/verify/psx-unknown': [404, fixture('transfer-verify.404.json')],
      '/transaction/initialize': [200, fixture('transaction-initialize.200.json')],
      '/transaction/verify/re4lyvq3s3': [200, fixture('transaction-verify.200.json')],
    });
  });
  afterAll(() => stop(documented.server));

  it('resolves an account name, with or without bank_id, sending the secret key as the bearer token', async () => {
    const { api } = apiAt(documented.url);
    expect(await api.resolveAccount('0022728151', '063', caller())).toEqual({ found: true, accountName: 'WES GIBBONS' });
    expect(documented.seen.at(-1)).toBe('GET /bank/resolve authorized');
    const guide = await serve({ '/bank/resolve': [200, fixture('bank-resolve.guide.200.json')] });
    try {
      expect(await new PaystackAccountNameProvider(apiAt(guide.url).api).lookup({ bankCode: '058', accountNumber: '0001234567', merchantId: 'MCH-A', signal: signal() })).toEqual({ outcome: 'found', accountName: 'Doe Jane Loren' });
    } finally {
      stop(guide.server);
    }
  });

  it('reads the recipient code of a created recipient, and a transfer queued as success', async () => {
    const { api } = apiAt(documented.url);
    expect(await api.createRecipient({ name: 'Tolu Robert', accountNumber: '01000000010', bankCode: '058' }, caller())).toEqual({ created: true, recipientCode: 'RCP_m7ljkv8leesep7p' });
    const sent = await api.initiateTransfer({ reference: 'acv_9ee55786-2323-4760-98e2-6380c9cb3f68', recipientCode: 'RCP_m7ljkv8leesep7p', amountMinor: 100_000n, reason: 'Bonus for the week' }, caller());
    expect(sent).toMatchObject({ accepted: true, transfer: { status: 'success', amountMinor: 100_000n, currency: 'NGN' } });
    if (!sent.accepted) throw new Error('unreachable');
    expect(answerOf(sent.transfer, 100_000n)).toEqual({ outcome: 'successful' });
    // Another amount than ours moves nothing.
    expect(answerOf(sent.transfer, 99_999n)).toEqual({ outcome: 'mismatch', amountMinor: 100_000n, currency: 'NGN' });
  });

  it('verifies a transfer, and takes 404 "Transfer not found" as no transfer', async () => {
    const { api } = apiAt(documented.url);
    expect(await api.verifyTransfer('acv_9ee55786-2323-4760-98e2-6380c9cb3f67', caller())).toMatchObject({ status: 'success', amountMinor: 100_000n });
    expect(await api.verifyTransfer('psx-unknown', caller())).toBeUndefined();
  });

  it('initializes a transaction and reads its authorization URL; verifies one as paid for its reported amount', async () => {
    const gateway = new PaystackGateway(apiAt(documented.url).api);
    const started = await gateway.startPayment({ merchantId: 'MCH-A', reference: 'order-1', amountMinor: 30_050n, currency: 'NGN', customerEmail: 'ada@example.com', channels: ['card'], returnUrl: 'https://pay.example.com/r' }, signal());
    expect(started).toEqual({ providerReference: expect.stringMatching(/^psi-[0-9a-f]{32}$/), paymentPageUrl: 'https://checkout.paystack.com/3ni8kdavz62431k' });
    // The documented example charged 40333 kobo for a request of 30050: the customer paid the fee, and the payin of 30050 is paid in full.
    const paid = await gateway.paymentStatus({ providerReference: 're4lyvq3s3', merchantId: 'MCH-A' }, signal());
    expect(paid).toEqual({ outcome: 'paid', amountMinor: 30_050n, chargedMinor: 40_333n, currency: 'NGN' });
    if (paid.outcome !== 'paid') throw new Error('unreachable');
    expect(paysInFull(paid, { amountMinor: 30_050n, currency: 'NGN' })).toBe(true);
  });

  it('credits nothing for a charge short of what was asked: amount 90000 against requested_amount 100000 on a payin of 100000', async () => {
    const documented = fixture('transaction-verify.200.json');
    const short = { ...documented, data: { ...(documented.data as Record<string, unknown>), amount: 90_000, requested_amount: 100_000 } };
    const server = await serve({ '/transaction/verify/psi-short': [200, short] });
    try {
      const paid = await new PaystackGateway(apiAt(server.url).api).paymentStatus({ providerReference: 'psi-short', merchantId: 'MCH-A' }, signal());
      expect(paid).toEqual({ outcome: 'paid', amountMinor: 100_000n, chargedMinor: 90_000n, currency: 'NGN' });
      if (paid.outcome !== 'paid') throw new Error('unreachable');
      expect(paysInFull(paid, { amountMinor: 100_000n, currency: 'NGN' })).toBe(false);
    } finally {
      stop(server.server);
    }
  });

  it.each([
    ['charged in full, for the payin\'s amount', { requested: 100_000n, charged: 100_000n }, true],
    ['charged the fee on top, for the payin\'s amount', { requested: 100_000n, charged: 101_500n }, true],
    ['charged short of what was asked', { requested: 100_000n, charged: 90_000n }, false],
    ['asked for less than the payin, charged in full', { requested: 90_000n, charged: 100_000n }, false],
    ['no requested_amount, charged the payin\'s amount', { requested: null, charged: 100_000n }, true],
    ['no requested_amount, charged more than the payin', { requested: null, charged: 101_500n }, false],
  ] as const)('a payin of 100000 kobo, %s', (_case, { requested, charged }, credits) => {
    const paid = transactionStatusOf({ status: 'success', amountMinor: charged, requestedAmountMinor: requested, currency: 'NGN', gatewayResponse: 'Approved' });
    if (paid.outcome !== 'paid') throw new Error('unreachable');
    expect(paysInFull(paid, { amountMinor: 100_000n, currency: 'NGN' })).toBe(credits);
  });

  it('takes the documented refusals as refusals: an invalid recipient, a duplicate transaction reference', async () => {
    const refusing = await serve({ '/transfer': [400, fixture('transfer-initiate.400.json')], '/transaction/initialize': [400, fixture('transaction-initialize.400.json')] });
    try {
      const { api } = apiAt(refusing.url);
      expect(await api.initiateTransfer({ reference: 'psx-0123456789abcdef', recipientCode: 'RCP_x', amountMinor: 100n, reason: 'r' }, caller())).toEqual({ accepted: false, status: 400, message: 'Recipient specified is invalid', type: 'validation_error', code: 'invalid_transfer_recipient' });
      expect(await new PaystackGateway(api).startPayment({ merchantId: 'M', reference: 'r', amountMinor: 100n, currency: 'NGN', customerEmail: 'a@b.co', channels: ['card'], returnUrl: 'https://x' }, signal())).toEqual({
        refused: '400 Duplicate Transaction Reference',
      });
    } finally {
      stop(refusing.server);
    }
  });

  it('takes the documented duplicate_transfer_reference as a transfer that exists: settled by verify, pending while verify does not show it', async () => {
    const duplicate = fixture('transfer-initiate.duplicate.400.json');
    expect(duplicate).toMatchObject({ message: 'Reference already exists on a transfer', code: 'duplicate_transfer_reference' });
    const transfer = { merchantId: 'MCH-A', providerReference: 'PSX-0123456789abcdef0123456789abcdef', bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU', amountMinor: 100_000n, narration: 'Invoice' };
    const keptRecipient = { query: async () => ({ rows: [{ recipient_code: 'RCP_m7ljkv8leesep7p' }] }) } as unknown as SqlClient;
    const unseen = await serve({ '/transfer': [400, duplicate] });
    const seen = await serve({ '/transfer': [400, duplicate], '/transfer/verify/psx-0123456789abcdef0123456789abcdef': [200, fixture('transfer-verify.200.json')] });
    try {
      expect(await new PaystackPayoutTransfers(apiAt(unseen.url).api, keptRecipient, pino({ level: 'silent' })).send(transfer, signal())).toEqual({ outcome: 'pending' });
      expect(unseen.seen.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual(['POST /transfer', 'GET /transfer/verify/psx-0123456789abcdef0123456789abcdef']);
      expect(await new PaystackPayoutTransfers(apiAt(seen.url).api, keptRecipient, pino({ level: 'silent' })).send(transfer, signal())).toEqual({ outcome: 'successful' });
    } finally {
      stop(unseen.server);
      stop(seen.server);
    }
  });

  it('takes a transfer reversed before the payout was paid as a failure, and one reversed after as a return', async () => {
    const reversed = { ...fixture('transfer-verify.200.json'), data: { ...(fixture('transfer-verify.200.json').data as Record<string, unknown>), status: 'reversed' } };
    const server = await serve({ '/transfer/verify/psx-0123456789abcdef0123456789abcdef': [200, reversed] });
    try {
      const provider = new PaystackPayoutTransfers(apiAt(server.url).api, undefined as never, pino({ level: 'silent' }));
      const transfer = { providerReference: 'PSX-0123456789abcdef0123456789abcdef', amountMinor: 100_000n };
      expect(await provider.status({ ...transfer, paid: false, merchantId: 'MCH-A' }, signal())).toEqual({ outcome: 'failed', reason: 'reversed_by_beneficiary_bank' });
      expect(await provider.status({ ...transfer, paid: true, merchantId: 'MCH-A' }, signal())).toEqual({ outcome: 'reversed', reason: 'reversed_by_beneficiary_bank' });
    } finally {
      stop(server.server);
    }
  });

  it('keeps a transfer waiting for an OTP pending', async () => {
    const otp = fixture('transfer-initiate.otp.200.json').data as Record<string, unknown>;
    expect(answerOf({ reference: otp.reference as string, status: otp.status as string, amountMinor: BigInt(otp.amount as number), currency: 'NGN', failureText: '' }, 20_000n)).toEqual({ outcome: 'pending' });
  });

  it('checks the webhook signature over the exact bytes, in constant time, and names the events the controller acts on', () => {
    const { api } = apiAt(documented.url);
    for (const name of ['webhook-charge-success.json', 'webhook-transfer-success.json', 'webhook-transfer-failed.json', 'webhook-transfer-reversed.json']) {
      const raw = Buffer.from(JSON.stringify(fixture(name)));
      const signature = createHmac('sha512', KEY).update(raw).digest('hex');
      expect(api.signatureMatches(raw, signature)).toBe(true);
      expect(api.signatureMatches(raw, signature.toUpperCase())).toBe(true);
      expect(api.signatureMatches(Buffer.concat([raw, Buffer.from(' ')]), signature)).toBe(false);
      expect(api.signatureMatches(raw, createHmac('sha512', 'sk_test_another').update(raw).digest('hex'))).toBe(false);
      expect(api.signatureMatches(raw, undefined)).toBe(false);
      expect(api.signatureMatches(raw, 'abc')).toBe(false);
    }
    expect((fixture('webhook-charge-success.json').data as Record<string, unknown>).reference).toBe('qTPrJoy9Bx');
    // A transfer reference not of ours (the documented examples) names no payout.
    expect(providerReferenceOf((fixture('webhook-transfer-success.json').data as Record<string, unknown>).reference as string)).toBeUndefined();
  });
});

describe('the mappings', () => {
  it('has a Paystack code for every catalogued bank, the fintechs included', () => {
    expect(banksWithoutPaystackCode()).toEqual([]);
    expect(BANK_CATALOGUE.length).toBeGreaterThan(30);
    expect({ globus: paystackBankCode('103'), opay: paystackBankCode('999992'), palmpay: paystackBankCode('999991'), kuda: paystackBankCode('50211'), moniepoint: paystackBankCode('50515') }).toEqual({
      globus: '00103',
      opay: '999992',
      palmpay: '999991',
      kuda: '50211',
      moniepoint: '50515',
    });
    expect(paystackBankCode('999')).toBeUndefined();
    expect(paystackBankCode('constructor')).toBeUndefined();
  });

  it('maps transfer statuses and failure words to ours', () => {
    const transfer = (status: string, failureText = '') => answerOf({ reference: 'r', status, amountMinor: 500n, currency: 'NGN', failureText }, 500n);
    expect(['pending', 'otp', 'received', 'queued'].map((s) => transfer(s).outcome)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(transfer('success')).toEqual({ outcome: 'successful' });
    expect(transfer('reversed')).toEqual({ outcome: 'reversed', reason: 'reversed_by_beneficiary_bank' });
    expect(['abandoned', 'blocked', 'rejected'].map((s) => transfer(s).outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(
      ['Account dormant', 'Invalid account number', 'Transfer limit exceeded', 'Do not honor', 'Suspected fraud', 'Beneficiary bank unavailable', 'Something else'].map(failureReasonOf),
    ).toEqual(['account_dormant', 'account_not_found', 'transfer_limit_exceeded', 'do_not_honor', 'suspected_fraud', 'beneficiary_bank_unavailable', 'provider_error']);
    expect(paystackReference('PSX-0123456789abcdef0123456789abcdef')).toBe('psx-0123456789abcdef0123456789abcdef');
    expect(providerReferenceOf('psx-0123456789abcdef0123456789abcdef')).toBe('PSX-0123456789abcdef0123456789abcdef');
  });

  it('maps transaction statuses and decline words to ours', () => {
    const tx = (status: string, gatewayResponse = '') => transactionStatusOf({ status, amountMinor: 100n, requestedAmountMinor: 100n, currency: 'NGN', gatewayResponse });
    expect(['ongoing', 'pending', 'processing', 'queued'].map((s) => tx(s).outcome)).toEqual(Array(4).fill('pending'));
    expect(['abandoned', 'reversed'].map((s) => tx(s).outcome)).toEqual(['unpaid', 'unpaid']);
    expect(tx('failed', 'Declined')).toEqual({ outcome: 'declined', reason: 'card_declined' });
    expect(['Insufficient Funds', 'Expired Card', 'Invalid CVV', 'Declined'].map(declineReasonOf)).toEqual(['insufficient_funds', 'expired_card', 'incorrect_cvc', 'card_declined']);
  });
});

describe('the provider client', () => {
  it('retries a lookup after a 5xx, never a transfer, and opens the circuit of the kind of call that keeps failing, not the others', async () => {
    let calls = 0;
    const failing = createServer((_request, response) => {
      calls++;
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end('{"status":false,"message":"Bad gateway"}');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
    try {
      const { api, circuits, metrics } = apiAt(url, { retries: 2, failures: 3 });
      await expect(api.resolveAccount('0022728151', '058', caller())).rejects.toMatchObject({ outcome: 'error' });
      expect(calls).toBe(3);
      expect(circuits.states()).toMatchObject({ enquiry: 'open', 'bank:058': 'open', transfer: 'closed' });
      expect(circuits.state).toBe('open');
      // Transfers have a circuit of their own: still sent.
      await expect(api.initiateTransfer({ reference: 'psx-0123456789abcdef', recipientCode: 'RCP_x', amountMinor: 100n, reason: 'r' }, caller())).rejects.toBeInstanceOf(ProviderUnavailable);
      expect(calls).toBe(4);
      await expect(api.resolveAccount('0022728151', '058', caller())).rejects.toMatchObject({ outcome: 'circuit_open' });
      expect(calls).toBe(4);
      expect(await metrics.registry.getSingleMetricAsString('paysign_provider_calls_total')).toMatch(/call="transfer_initiate",outcome="error"} 1/);
    } finally {
      stop(failing);
    }
  });

  it('takes a refused key as no answer, never as a refusal of the payment, and never logs the key', async () => {
    const refusing = await serve({ '/transfer': [401, { status: false, message: 'Invalid key' }], '/transfer/verify/psx-x': [401, { status: false, message: 'Invalid key' }], '/bank/resolve': [200, fixture('bank-resolve.200.json')] });
    try {
      const { api, logs } = apiAt(refusing.url, { retries: 2 });
      await expect(api.initiateTransfer({ reference: 'psx-0123456789abcdef', recipientCode: 'RCP_x', amountMinor: 100n, reason: 'r' }, caller())).rejects.toMatchObject({ outcome: 'unauthorized' });
      // A lookup is retried after a 5xx, never after a refused key: the same key meets the same refusal.
      await expect(api.verifyTransfer('psx-x', caller())).rejects.toMatchObject({ outcome: 'unauthorized' });
      expect(refusing.seen.filter((line) => line.startsWith('GET /transfer/verify/'))).toHaveLength(1);
      await api.resolveAccount('0022728151', '058', caller());
      expect(logs.join('')).toContain('the provider refused our secret key');
      expect(logs.join('')).not.toContain(KEY);
      expect(logs.join('')).not.toContain('0022728151');
    } finally {
      stop(refusing.server);
    }
  });
});
