import { randomUUID } from 'node:crypto';
import { sign } from '@paysign/signing';
import { signedCall, send } from './support/api-client';
import { rawExchange, rawJsonBody } from './support/raw-http';
import { MERCHANT_A } from './support/credentials';
import { describeInProduction } from './support/stores';
import { startProductionTestApp, startTestApp, type TestApp } from './support/test-app';

const ENQUIRY = '/payment/merchant-api/account/inquiry';
const PAYINS = '/payment/api/payins';
const VALID_PAYIN = { amount: 100, currency: 'NGN', customerEmail: 'ada@example.com', reference: 'bad-input' };

type Case = [string, { path: string; body: string; status: number; code: string; field?: string }];

const payin = (changes: Record<string, unknown>) => JSON.stringify({ ...VALID_PAYIN, ...changes });

/**
 * Each case carries a valid signature, so what is refused is the input itself.
 * Bodies that cannot be signed at all are refused before the signature is
 * compared, so those carry a signature over `{}`.
 */
const UNSIGNABLE = new Set(['NESTED_VALUE', 'BODY_NOT_OBJECT', 'DUPLICATE_KEY', 'INVALID_JSON', 'INVALID_UTF8', 'TOO_MANY_FIELDS']);
const CASES: Case[] = [
  ['a nested object', { path: PAYINS, body: '{"amount":100,"customer":{"name":"Ada"}}', status: 400, code: 'NESTED_VALUE' }],
  ['an array value', { path: ENQUIRY, body: '{"bankCode":["058"],"accountNumber":"0123456785"}', status: 400, code: 'NESTED_VALUE' }],
  ['a top-level array', { path: ENQUIRY, body: '[{"bankCode":"058"}]', status: 400, code: 'BODY_NOT_OBJECT' }],
  ['a duplicate key', { path: ENQUIRY, body: '{"bankCode":"058","bankCode":"044","accountNumber":"0123456785"}', status: 400, code: 'DUPLICATE_KEY' }],
  ['invalid JSON', { path: ENQUIRY, body: '{"bankCode":"058",}', status: 400, code: 'INVALID_JSON' }],
  ['a __proto__ field', { path: ENQUIRY, body: '{"__proto__":"x","bankCode":"058","accountNumber":"0123456785"}', status: 400, code: 'VALIDATION_FAILED', field: '__proto__' }],
  ['an unknown field', { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":"0123456785","acountName":"x"}', status: 400, code: 'VALIDATION_FAILED', field: 'acountName' }],
  ['a missing accountNumber', { path: ENQUIRY, body: '{"bankCode":"058"}', status: 400, code: 'VALIDATION_FAILED', field: 'accountNumber' }],
  ['a 9-digit accountNumber', { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":"012345678"}', status: 400, code: 'VALIDATION_FAILED', field: 'accountNumber' }],
  ['a numeric accountNumber', { path: ENQUIRY, body: '{"bankCode":"058","accountNumber":1234567890}', status: 400, code: 'VALIDATION_FAILED', field: 'accountNumber' }],
  ['a bank outside the catalogue', { path: ENQUIRY, body: '{"bankCode":"999","accountNumber":"0123456785"}', status: 400, code: 'VALIDATION_FAILED', field: 'bankCode' }],
  ['an empty body', { path: ENQUIRY, body: '', status: 400, code: 'VALIDATION_FAILED', field: 'bankCode' }],
  ['a zero amount', { path: PAYINS, body: payin({ amount: 0 }), status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['a negative amount', { path: PAYINS, body: payin({ amount: -5 }), status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['three decimals', { path: PAYINS, body: payin({ amount: 10.005 }), status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['an amount as a string', { path: PAYINS, body: payin({ amount: '100' }), status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['a huge amount', { path: PAYINS, body: '{"amount":1e400,"currency":"NGN","customerEmail":"ada@example.com","reference":"r"}', status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['an unknown currency', { path: PAYINS, body: payin({ currency: 'XYZ' }), status: 400, code: 'VALIDATION_FAILED', field: 'currency' }],
  ['a bad email', { path: PAYINS, body: payin({ customerEmail: 'not-an-email' }), status: 400, code: 'VALIDATION_FAILED', field: 'customerEmail' }],
  ['a non-URL notifyUrl', { path: PAYINS, body: payin({ notifyUrl: 'merchant.example.com/hook' }), status: 400, code: 'VALIDATION_FAILED', field: 'notifyUrl' }],
  ['a javascript: redirectUrl', { path: PAYINS, body: payin({ redirectUrl: 'javascript:alert(1)' }), status: 400, code: 'VALIDATION_FAILED', field: 'redirectUrl' }],
  ['a reference with a space', { path: PAYINS, body: payin({ reference: 'order 1' }), status: 400, code: 'VALIDATION_FAILED', field: 'reference' }],
  ['a reference of 65 characters', { path: PAYINS, body: payin({ reference: 'r'.repeat(65) }), status: 400, code: 'VALIDATION_FAILED', field: 'reference' }],
  ['an & in the reference', { path: PAYINS, body: payin({ reference: 'a&b=c' }), status: 400, code: 'VALIDATION_FAILED', field: 'reference' }],
  ['a newline in the narration', { path: PAYINS, body: payin({ narration: 'line\nbreak' }), status: 400, code: 'VALIDATION_FAILED', field: 'narration' }],
  ['a 101-character name', { path: PAYINS, body: payin({ customerName: 'n'.repeat(101) }), status: 400, code: 'VALIDATION_FAILED', field: 'customerName' }],
  ['an upper-case gateway', { path: PAYINS, body: payin({ gateway: 'CARD' }), status: 400, code: 'VALIDATION_FAILED', field: 'gateway' }],
  ['an amount in exponent notation, 1e-7', { path: PAYINS, body: payin({ amount: 1e-7 }), status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['an amount of 1.005', { path: PAYINS, body: '{"amount":1.005,"currency":"NGN","customerEmail":"ada@example.com","reference":"r"}', status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['an amount of 1E-2, two decimals written as an exponent', { path: PAYINS, body: '{"amount":1E-2,"currency":"NGN","customerEmail":"ada@example.com","reference":"r"}', status: 400, code: 'VALIDATION_FAILED', field: 'amount' }],
  ['the reference "."', { path: PAYINS, body: payin({ reference: '.' }), status: 400, code: 'VALIDATION_FAILED', field: 'reference' }],
  ['the reference ".."', { path: PAYINS, body: payin({ reference: '..' }), status: 400, code: 'VALIDATION_FAILED', field: 'reference' }],
  ['a name of spaces only', { path: PAYINS, body: payin({ customerName: '   ' }), status: 400, code: 'VALIDATION_FAILED', field: 'customerName' }],
  ['a narration of spaces only', { path: PAYINS, body: payin({ narration: ' ' }), status: 400, code: 'VALIDATION_FAILED', field: 'narration' }],
  ['a right-to-left override in the name', { path: PAYINS, body: payin({ customerName: 'Ada \u202Egnp.exe' }), status: 400, code: 'VALIDATION_FAILED', field: 'customerName' }],
  ['a bidi isolate in the narration', { path: PAYINS, body: payin({ narration: 'Order \u2067 1042' }), status: 400, code: 'VALIDATION_FAILED', field: 'narration' }],
  ['a zero-width space in the narration', { path: PAYINS, body: payin({ narration: 'Order\u200B1042' }), status: 400, code: 'VALIDATION_FAILED', field: 'narration' }],
  ['33 fields, one more than the cap', { path: PAYINS, body: JSON.stringify(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, i]))), status: 400, code: 'TOO_MANY_FIELDS' }],
];

/** Characters that got into narration and customerName: invisible, formatting or blank, inside a value or as all of it. */
const INVISIBLE_TEXT: Array<[string, { field: 'customerName' | 'narration'; value: string; want: string }]> = [
  ['a left-to-right mark in the name', { field: 'customerName', value: 'Ada\u200EObi', want: 'invisible_characters' }],
  ['an Arabic letter mark in the narration', { field: 'narration', value: 'Order \u061C1042', want: 'invisible_characters' }],
  ['a tag character as the whole narration', { field: 'narration', value: '\u{E0041}', want: 'invisible_characters' }],
  ['a soft hyphen in the name', { field: 'customerName', value: 'Ada\u00ADObi', want: 'invisible_characters' }],
  ['an invisible separator as the whole name', { field: 'customerName', value: '\u2063', want: 'invisible_characters' }],
  ['VS16 after a heart in the narration', { field: 'narration', value: 'Thanks \u2764\uFE0F', want: 'invisible_characters' }],
  ['a Hangul filler as the whole name', { field: 'customerName', value: '\u3164', want: 'invisible_characters' }],
  ['braille blanks as the whole narration', { field: 'narration', value: '\u2800\u2800', want: 'no_visible_character' }],
];

describe('bad input over real HTTP', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(() => api.close());

  it.each(CASES)('refuses %s with a 4xx and the error body', async (_name, { path, body, status, code, field }) => {
    const signedBody = UNSIGNABLE.has(code) ? '{}' : undefined;
    const response = await signedCall(api.baseUrl, { method: 'POST', path, body, signedBody, credential: MERCHANT_A });
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject({ code, retryable: false, requestId: expect.any(String) });
    expect(String(response.json.message).length).toBeGreaterThan(20);
    if (field) expect(response.json.details).toContainEqual(expect.objectContaining({ field }));
  });

  it.each(INVISIBLE_TEXT)('refuses %s with 400 and the field error', async (_name, { field, value, want }) => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: payin({ reference: `text-${randomUUID()}`, [field]: value }), credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_FAILED', retryable: false, requestId: expect.any(String) });
    expect(response.json.details).toEqual([{ field, code: want, message: expect.stringContaining(field) }]);
  });

  it('accepts names and narrations in any script, with combining marks and emoji', async () => {
    const body = payin({ reference: `text-${randomUUID()}`, customerName: 'Ọ̀ṣun Adébáyọ̀', narration: 'Заказ 1042 · طلب · 注文 · Thanks ❤ 👍🏽' });
    const response = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
    expect(response.status).toBe(201);
  });

  it('reports every invalid field at once', async () => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: '{"amount":-1,"currency":"XYZ","customerEmail":"x","reference":"ok"}', credential: MERCHANT_A });
    expect((response.json.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual(['amount', 'currency', 'customerEmail']);
  });

  it('refuses invalid UTF-8 with INVALID_UTF8', async () => {
    const bytes = Buffer.from([...Buffer.from('{"bankCode":"'), 0xff, ...Buffer.from('","accountNumber":"0123456785"}')]);
    const { headers } = sign({ ...MERCHANT_A, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'POST', path: ENQUIRY, body: Buffer.from('{}') });
    const response = await send(api.baseUrl, { method: 'POST', path: ENQUIRY, headers: { ...(headers as Record<string, string>), 'content-type': 'application/json' }, body: bytes });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe('INVALID_UTF8');
  });

  it('refuses a body over the 64 KiB limit with 413, naming the limit', async () => {
    const body = JSON.stringify({ narration: 'x'.repeat(64 * 1024) });
    const response = await signedCall(api.baseUrl, { path: PAYINS, body, credential: MERCHANT_A });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ code: 'BODY_TOO_LARGE', message: 'The request body is larger than 65536 bytes. Send a smaller body.' });
  });

  it('refuses a reference of dots only in the path with 400', async () => {
    const response = await signedCall(api.baseUrl, { path: `${PAYINS}/...`, credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'reference', code: 'pattern' }] });
  });

  it('accepts a reference with dots among other characters', async () => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: payin({ reference: `order.${randomUUID()}` }), credential: MERCHANT_A });
    expect(response.status).toBe(201);
  });

  it('refuses a non-JSON content type with 415', async () => {
    const response = await signedCall(api.baseUrl, { path: ENQUIRY, body: 'bankCode=058', signedBody: '{}', contentType: 'application/x-www-form-urlencoded', credential: MERCHANT_A });
    expect(response.status).toBe(415);
    expect(response.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a malformed reference in the path with 400', async () => {
    const response = await signedCall(api.baseUrl, { path: `${PAYINS}/${'r'.repeat(65)}`, credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'reference', code: 'pattern' }] });
  });

  it.each([
    ['a broken percent-encoding', `${PAYINS}/order%`],
    ['an encoded NUL then a broken percent-encoding', `${PAYINS}/order%00%`],
    ['a path parameter longer than the router reads', `${PAYINS}/${'r'.repeat(101)}`],
  ])('refuses a path with %s with 400 MALFORMED_REQUEST and the error body', async (_name, path) => {
    const response = await signedCall(api.baseUrl, { path, credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'MALFORMED_REQUEST', retryable: false, requestId: response.headers.get('x-request-id') });
  });

  it('refuses a request target with a fragment, which the router would drop and so serve another operation, with 400 MALFORMED_REQUEST', async () => {
    const path = `${PAYINS}/bad-input-fragment#/events`;
    const { headers } = sign({ ...MERCHANT_A, nonce: randomUUID(), timestamp: Math.floor(Date.now() / 1000), method: 'GET', path });
    const head = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), 'Connection: close', '', ''].join('\r\n');
    const exchange = await rawExchange(api.baseUrl, [head], 5000);
    expect(exchange.response).toMatch(/^HTTP\/1\.1 400 /);
    expect(rawJsonBody(exchange.response)).toMatchObject({ code: 'MALFORMED_REQUEST', retryable: false });
  });

  it('checks the signature before the body, so unsigned callers learn nothing about it', async () => {
    const response = await send(api.baseUrl, { method: 'POST', path: ENQUIRY, headers: { 'content-type': 'application/json' }, body: '{"a":{}}' });
    expect(response.status).toBe(401);
  });
});

describeInProduction('bad input in production mode', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startProductionTestApp();
  });
  afterAll(() => api.close());

  it('refuses http callback URLs', async () => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: payin({ notifyUrl: 'http://merchant.example.com/hook' }), credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json.details).toEqual([expect.objectContaining({ field: 'notifyUrl', message: 'notifyUrl must be an https URL in production mode.' })]);
  });

  it.each([
    ['redirectUrl', 'https://shop.example:443@evil.example/'],
    ['redirectUrl', 'https://shop.example\\@evil.example'],
    ['notifyUrl', 'https://user:pass@merchant.example.com/hook'],
    ['notifyUrl', 'https:\\\\evil.example/hook'],
  ])('refuses a %s of %s, whose host is not what it seems, as in sandbox mode', async (field, url) => {
    const response = await signedCall(api.baseUrl, { path: PAYINS, body: payin({ [field]: url }), credential: MERCHANT_A });
    expect(response.status).toBe(400);
    expect(response.json.details).toEqual([expect.objectContaining({ field, code: 'unsafe_url' })]);
  });
});
