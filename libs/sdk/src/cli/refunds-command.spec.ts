// paysign refunds with the service's answers scripted through the injected
// fetch: each request is checked as the service would check it (method, path
// with its query, body, signature), and each answer's output line by line.
import { verify } from '@paysign/signing';
import type { Refund } from '@paysign/contracts';
import { runPaysign } from './paysign';
import { createTestIo } from './testing-io';

const CREDENTIAL = { PAYSIGN_API_KEY: 'pk_test_refunds', PAYSIGN_SECRET_KEY: 'sk_test_refunds_0123456789', PAYSIGN_MERCHANT_ID: 'MCH-R', PAYSIGN_TENANT_ID: 'TEN-R', PAYSIGN_BASE_URL: 'http://service.test' };

const PENDING: Refund = {
  reference: 'refund-1042-1',
  merchantId: 'MCH-R',
  payinReference: 'order-1042',
  status: 'PENDING',
  amount: 500,
  currency: 'NGN',
  reason: 'requested_by_customer',
  merchantNote: null,
  customerNote: 'One of the two items was out of stock',
  notifyUrl: null,
  fundedFrom: 'pending',
  feeReturned: 0,
  provider: 'sandbox',
  providerReference: null,
  account: null,
  failureReason: null,
  needsAttention: false,
  nextStatusCheckAt: null,
  version: 1,
  createdAt: '2026-11-24T09:00:00.000Z',
  processingAt: null,
  completedAt: null,
};
const FAILED: Refund = {
  ...PENDING,
  status: 'FAILED',
  failureReason: 'account_not_found',
  providerReference: 'psr_4Xk2m9QwE7rTz1LpV0bN3c',
  account: { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU', enquiryId: 'enq_1' },
  version: 4,
  processingAt: '2026-11-24T09:00:01.000Z',
  completedAt: '2026-11-24T09:05:00.000Z',
};

interface Sent {
  method: string;
  path: string;
  body: string;
  signed: boolean;
}

/** A CLI whose fetch answers from a script and records each request, checking its signature with the credential's secret. */
function scripted(answers: Response[]) {
  const sent: Sent[] = [];
  const { io, out, err } = createTestIo({
    env: CREDENTIAL,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const path = `${url.pathname}${url.search}`;
      const body = request.method === 'GET' ? '' : await request.text();
      const headers = Object.fromEntries(request.headers);
      const timestamp = Number(headers['x-timestamp']);
      const signed = verify({ method: request.method, path, headers, body: body === '' ? undefined : body, now: timestamp, secretFor: () => CREDENTIAL.PAYSIGN_SECRET_KEY }).ok;
      sent.push({ method: request.method, path, body, signed });
      const answer = answers.shift();
      if (!answer) throw new Error('the script has no more answers');
      return answer;
    },
  });
  return { io, out, err, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => Response.json(body, { status, headers: { 'x-request-id': 'req-1', ...headers } });

describe('paysign refunds', () => {
  it.each<[string, { args: string[]; answer: Response; want: { code: number; sent: Omit<Sent, 'signed'>; out: string[]; err: string[] } }]>([
    [
      'create refunds part of a payin, signed, and says it is held and can still be cancelled',
      {
        args: ['create', '--payin', 'order-1042', '--reference', 'refund-1042-1', '--amount', '500', '--reason', 'requested_by_customer', '--customer-note', 'One of the two items was out of stock'],
        answer: json(201, PENDING),
        want: {
          code: 0,
          sent: { method: 'POST', path: '/payment/api/refunds', body: '{"reference":"refund-1042-1","payinReference":"order-1042","amount":500,"reason":"requested_by_customer","customerNote":"One of the two items was out of stock"}' },
          out: ['Refund refund-1042-1 of payin order-1042: PENDING, NGN 500.00. Held from pending; not yet sent to the provider, so it can still be cancelled.'],
          err: [],
        },
      },
    ],
    [
      'create again with the same reference shows the refund as it is now',
      {
        args: ['create', '--payin', 'order-1042', '--reference', 'refund-1042-1'],
        answer: json(200, { ...FAILED, status: 'PROCESSING', failureReason: null, completedAt: null }, { 'idempotent-replayed': 'true' }),
        want: {
          code: 0,
          sent: { method: 'POST', path: '/payment/api/refunds', body: '{"reference":"refund-1042-1","payinReference":"order-1042"}' },
          out: ['Refund refund-1042-1 of payin order-1042: PROCESSING, NGN 500.00. Already created with this reference: shown as it is now, nothing new was created.'],
          err: [],
        },
      },
    ],
    [
      "create refused by the service prints its code and message, which says how much is left",
      {
        args: ['create', '--payin', 'order-1042', '--reference', 'refund-1042-2', '--amount', '1200'],
        answer: json(422, { code: 'REFUND_EXCEEDS_PAYIN', message: 'The refund of NGN 1200.00 is more than payin order-1042 has left to refund.', requestId: 'req-1', retryable: false }),
        want: {
          code: 1,
          sent: { method: 'POST', path: '/payment/api/refunds', body: '{"reference":"refund-1042-2","payinReference":"order-1042","amount":1200}' },
          out: [],
          err: ['paysign refunds create: REFUND_EXCEEDS_PAYIN: The refund of NGN 1200.00 is more than payin order-1042 has left to refund.'],
        },
      },
    ],
    [
      'show prints the refund, then each field that has a value',
      {
        args: ['show', 'refund-1042-1'],
        answer: json(200, FAILED),
        want: {
          code: 0,
          sent: { method: 'GET', path: '/payment/api/refunds/refund-1042-1', body: '' },
          out: [
            'Refund refund-1042-1 of payin order-1042: FAILED (account_not_found), NGN 500.00.',
            '  reason      requested_by_customer',
            '  customer    One of the two items was out of stock',
            '  provider    sandbox psr_4Xk2m9QwE7rTz1LpV0bN3c',
            '  account     058 0123456785 ADAEZE NWOSU',
            '  created     2026-11-24T09:00:00.000Z',
            '  sent        2026-11-24T09:00:01.000Z',
            '  completed   2026-11-24T09:05:00.000Z',
          ],
          err: [],
        },
      },
    ],
    [
      'show of an unknown refund fails with REFUND_NOT_FOUND',
      {
        args: ['show', 'refund-none'],
        answer: json(404, { code: 'REFUND_NOT_FOUND', message: 'No refund with reference refund-none exists for this merchant.', requestId: 'req-1', retryable: false }),
        want: { code: 1, sent: { method: 'GET', path: '/payment/api/refunds/refund-none', body: '' }, out: [], err: ['paysign refunds show: REFUND_NOT_FOUND: No refund with reference refund-none exists for this merchant.'] },
      },
    ],
    [
      'list sends the filters as the query, prints one line per refund, and the cursor that continues',
      {
        args: ['list', '--payin', 'order-1042', '--status', 'FAILED', '--created-from', '2026-11-01T00:00:00Z', '--limit', '2'],
        answer: json(200, { data: [FAILED, { ...FAILED, reference: 'refund-1042-0', amount: 1000.5 }], hasMore: true, nextCursor: 'cur_2' }),
        want: {
          code: 0,
          sent: { method: 'GET', path: '/payment/api/refunds?status=FAILED&payinReference=order-1042&createdFrom=2026-11-01T00%3A00%3A00Z&limit=2', body: '' },
          out: ['  refund-1042-1  payin order-1042  NGN 500.00  FAILED  2026-11-24T09:00:00.000Z', '  refund-1042-0  payin order-1042  NGN 1000.50  FAILED  2026-11-24T09:00:00.000Z'],
          err: ['More refunds match: run the same command with --cursor cur_2'],
        },
      },
    ],
    [
      'list with a cursor starts there, and says when nothing matches',
      {
        args: ['list', '--cursor', 'cur_2'],
        answer: json(200, { data: [], hasMore: false, nextCursor: null }),
        want: { code: 0, sent: { method: 'GET', path: '/payment/api/refunds?cursor=cur_2', body: '' }, out: ['No refunds match.'], err: [] },
      },
    ],
  ])('%s', async (_name, { args, answer, want }) => {
    const { io, out, err, sent } = scripted([answer]);
    expect(await runPaysign(['refunds', ...args], io)).toBe(want.code);
    expect(sent).toEqual([{ ...want.sent, signed: true }]);
    expect(out).toEqual(want.out);
    expect(err).toEqual(want.err);
  });

  it.each<[string, { args: string[]; err: string }]>([
    ['no action', { args: [], err: 'paysign refunds: expected "create", "show" or "list", got nothing. Run paysign --help.' }],
    ['an unknown action', { args: ['cancel', 'refund-1'], err: 'paysign refunds: expected "create", "show" or "list", got "cancel". Run paysign --help.' }],
    ['create without --payin', { args: ['create', '--reference', 'refund-1'], err: 'paysign refunds: --payin is required.' }],
    ['create without --reference', { args: ['create', '--payin', 'order-1'], err: 'paysign refunds: --reference is required.' }],
    ['an amount with 3 decimal places', { args: ['create', '--payin', 'order-1', '--reference', 'refund-1', '--amount', '10.005'], err: 'paysign refunds: --amount must be an amount above 0 in major units with at most 2 decimal places, such as 500 or 3800.50, got "10.005".' }],
    ['an amount of 0', { args: ['create', '--payin', 'order-1', '--reference', 'refund-1', '--amount', '0'], err: 'paysign refunds: --amount must be an amount above 0 in major units with at most 2 decimal places, such as 500 or 3800.50, got "0".' }],
    ['a reason the contract does not have', { args: ['create', '--payin', 'order-1', '--reference', 'refund-1', '--reason', 'changed_mind'], err: 'paysign refunds: --reason must be one of duplicate, fraudulent, requested_by_customer, other, got "changed_mind".' }],
    ['show without a reference', { args: ['show'], err: 'paysign refunds: expected <reference>, got none.' }],
    ['a status the contract does not have', { args: ['list', '--status', 'REFUNDED'], err: 'paysign refunds: --status must be one of PENDING, PROCESSING, REQUIRES_ACTION, SUCCESSFUL, FAILED, CANCELLED, got "REFUNDED".' }],
    ['a limit that is not a whole number', { args: ['list', '--limit', 'ten'], err: 'paysign refunds: --limit must be a whole number of refunds per page, from 1 to 100, got "ten".' }],
  ])('refuses %s as bad input, exiting 2 and sending nothing', async (_name, { args, err: want }) => {
    const { io, err, sent } = scripted([]);
    expect(await runPaysign(['refunds', ...args], io)).toBe(2);
    expect(sent).toEqual([]);
    expect(err).toEqual([want]);
  });
});
