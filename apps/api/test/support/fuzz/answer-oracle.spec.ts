import { ContractValidator } from '@paysign/contracts/testing';
import { judgeAnswer, type AnswerToJudge } from './answer-oracle';
import type { RawResponse } from './raw-request';

const contract = new ContractValidator();

const ERROR = { code: 'VALIDATION_FAILED', message: 'm', requestId: 'r', retryable: false, details: [{ field: 'reference', code: 'pattern', message: 'm' }] };
const json = (status: number, body: unknown): RawResponse => ({ status, headers: new Map([['content-type', ['application/json; charset=utf-8']]]), body: Buffer.from(JSON.stringify(body)) });
const html = (status: number): RawResponse => ({ status, headers: new Map([['content-type', ['text/html; charset=utf-8']]]), body: Buffer.from('<!doctype html>') });
const bare = (status: number): RawResponse => ({ status, headers: new Map(), body: Buffer.alloc(0) });

const answer = (given: Partial<AnswerToJudge>): AnswerToJudge => ({ method: 'GET', target: '/payment/api/payins/order-1', response: undefined, htmlErrors: false, errorsLogged: [], ...given });

describe('judgeAnswer, the fuzz suite oracle', () => {
  it.each<[string, { given: Partial<AnswerToJudge>; want: RegExp[] }]>([
    ['a documented error body', { given: { response: json(400, ERROR) }, want: [] }],
    ['an HTML page where the contract documents one', { given: { target: '/payment/checkout/x', response: html(404), htmlErrors: true }, want: [] }],
    ['an error on a path outside the contract, in the Error shape', { given: { target: '/payment/nowhere', response: json(404, { ...ERROR, code: 'ROUTE_NOT_FOUND', details: undefined }) }, want: [] }],
    ['a refusal of the HTTP parser on an HTML route, as JSON', { given: { target: '/payment/checkout/x', htmlErrors: true, response: json(400, { ...ERROR, code: 'MALFORMED_REQUEST', details: undefined }) }, want: [] }],
    ['no answer', { given: {}, want: [/^no answer/] }],
    ['a 500, even in the error shape', { given: { response: json(500, { ...ERROR, code: 'INTERNAL_ERROR', details: undefined }) }, want: [/^answered 500$/] }],
    ['a 503', { given: { target: '/payment/health/ready', response: json(503, { status: 'unavailable', checks: {} }) }, want: [/^answered 503$/] }],
    ['an error logged while answering', { given: { response: json(400, ERROR), errorsLogged: [{ level: 50, msg: 'request failed' }] }, want: [/^the service logged an error/] }],
    ['a bare status with no body', { given: { target: '/payment/nowhere', response: bare(400) }, want: [/not the JSON error body/] }],
    ['a framework body outside the shape', { given: { response: json(400, { error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: 'm', statusCode: 400 }) }, want: [/outside the contract/] }],
    ['an HTML page on a JSON route', { given: { target: '/payment/nowhere', response: html(404) }, want: [/not the JSON error body/] }],
    ['an error for a target whose raw space ends its path early, judged by the path read', { given: { target: '/payment/checkout/ ', htmlErrors: true, response: json(404, { ...ERROR, code: 'ROUTE_NOT_FOUND', details: undefined }) }, want: [] }],
    ['a 2xx body outside its schema', { given: { response: json(200, { reference: 'order-1' }) }, want: [/outside the contract/] }],
  ])('%s', (_name, { given, want }) => {
    const { problems } = judgeAnswer(contract, answer(given));
    if (want.length === 0) expect(problems).toEqual([]);
    for (const pattern of want) expect(problems).toContainEqual(expect.stringMatching(pattern));
  });

  it('notes an error status the operation does not list, in the error shape, as a gap of the contract rather than a failure', () => {
    const judgement = judgeAnswer(contract, answer({ target: '/payment/health/live', response: json(404, { ...ERROR, code: 'ROUTE_NOT_FOUND', details: undefined }) }));
    expect(judgement).toEqual({ problems: [], undocumentedStatus: 'GET /payment/health/live does not document status 404 (ROUTE_NOT_FOUND)' });
  });
});
