// Requests for one operation of the contract: its method (or another), its
// path parameters, query, body and headers, and how it is signed.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sign } from '@paysign/signing';
import { MERCHANT_A, MERCHANT_B } from '../credentials';
import { fillTemplate, type ContractOperation, type Schema } from './contract-operations';
import { bodyBytes, jsonBody, jsonContentType, type BodyPlan } from './json-bodies';
import { oddText } from './odd-values';
import type { RawRequest } from './raw-request';
import { extraHeaders, headerValue, pathValue, percentEncode, queryString } from './request-parts';
import { objectFields, parameterText } from './schema-values';

const SIGNING_HEADER_NAMES = ['X-API-KEY', 'X-Nonce', 'X-Timestamp', 'X-Signature', 'X-Merchant-ID', 'X-Tenant-ID'] as const;

/** How a request is signed: properly (so that it reaches validation and the stores), not at all, or wrongly in one way. */
export type AuthPlan =
  | { kind: 'signed'; merchant: 'A' | 'B' }
  | { kind: 'unsigned' }
  | { kind: 'tampered'; header: (typeof SIGNING_HEADER_NAMES)[number]; change: 'remove' | 'duplicate' | 'lower-case name' | { value: string } }
  | { kind: 'skewed'; seconds: number }
  | { kind: 'wrong secret' }
  | { kind: 'replayed nonce' }
  | { kind: "another merchant's IDs" };

export interface OperationRequestPlan {
  method: string;
  /** Each path parameter as sent, encoded or not. */
  pathValues: Record<string, string>;
  /** With its `?`, or empty. */
  query: string;
  auth: AuthPlan;
  body?: BodyPlan;
  contentType?: string;
  /** Sent with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked: boolean;
  host: 'as is' | 'missing' | 'twice' | { value: string };
  headers: Array<readonly [string, string]>;
}

const authPlan = (signed: boolean): fc.Arbitrary<AuthPlan> =>
  fc.oneof(
    { weight: signed ? 14 : 1, arbitrary: fc.constantFrom<AuthPlan>({ kind: 'signed', merchant: 'A' }, { kind: 'signed', merchant: 'A' }, { kind: 'signed', merchant: 'B' }) },
    { weight: signed ? 1 : 8, arbitrary: fc.constant<AuthPlan>({ kind: 'unsigned' }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...SIGNING_HEADER_NAMES), fc.oneof(fc.constantFrom('remove' as const, 'duplicate' as const, 'lower-case name' as const), headerValue.map((value) => ({ value }))))
        .map(([header, change]): AuthPlan => ({ kind: 'tampered', header, change })),
    },
    { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(-301, 301, -300, 300)).map((seconds): AuthPlan => ({ kind: 'skewed', seconds })) },
    { weight: 1, arbitrary: fc.constantFrom<AuthPlan>({ kind: 'wrong secret' }, { kind: 'replayed nonce' }, { kind: "another merchant's IDs" }) },
  );

/** Form bodies (application/x-www-form-urlencoded) for a schema: valid and odd fields, unknown and repeated ones, odd encodings. */
export function formBody(schema: Schema): fc.Arbitrary<BodyPlan> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => fc.option(parameterText(name, property).map((value) => [name, value] as const), { freq: 4 }));
  const extra = fc.array(fc.tuple(oddText, oddText), { maxLength: 2 });
  return fc.tuple(fc.tuple(...fields), extra, fc.boolean(), fc.boolean()).map(([chosen, unknown, plusForSpace, repeatFirst]) => {
    const entries = [...chosen.filter((f): f is readonly [string, string] => f !== null), ...unknown];
    if (repeatFirst && entries.length > 0) entries.push(entries[0] as readonly [string, string]);
    const encode = (text: string) => (plusForSpace ? percentEncode(text, /[A-Za-z0-9._~ -]/).replace(/ /g, '+') : percentEncode(text));
    return { text: entries.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&') };
  });
}

/** Requests for `operation`, with real IDs of the suite's objects for its path and query parameters. */
export function operationRequest(operation: ContractOperation, realIds: Readonly<Record<string, readonly string[]>>): fc.Arbitrary<OperationRequestPlan> {
  const otherMethods = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'FOO', operation.method.toLowerCase(), ...(operation.method === 'GET' ? ['HEAD', 'POST'] : ['GET'])];
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom(...otherMethods) });
  const pathValues = fc.record(Object.fromEntries(operation.pathParameters.map((p) => [p.name, pathValue(p, realIds[p.name] ?? [])])) as Record<string, fc.Arbitrary<string>>);
  const requestBody = operation.requestBody;
  const body: fc.Arbitrary<{ body?: BodyPlan; contentType?: string }> = !requestBody
    ? fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.tuple(jsonBody(fc.constant([])), jsonContentType).map(([b, contentType]) => ({ body: b, contentType })) })
    : requestBody.mediaType === 'application/json'
      ? fc.tuple(jsonBody(objectFields(requestBody.schema, requestBody.examples)), jsonContentType).map(([b, contentType]) => ({ body: b, contentType }))
      : fc.tuple(formBody(requestBody.schema), fc.oneof({ weight: 6, arbitrary: fc.constant(requestBody.mediaType) }, { weight: 1, arbitrary: jsonContentType })).map(([b, contentType]) => ({ body: b, contentType }));
  const host = fc.oneof(
    { weight: 20, arbitrary: fc.constant<OperationRequestPlan['host']>('as is') },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom<OperationRequestPlan['host']>('missing', 'twice'), headerValue.map((value): OperationRequestPlan['host'] => ({ value }))) },
  );
  return fc
    .record({
      method,
      pathValues,
      query: operation.queryParameters.length > 0 ? queryString(operation.queryParameters, realIds) : fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryString([]) }),
      auth: authPlan(operation.signed),
      body,
      chunked: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      host,
      headers: fc.oneof({ weight: 3, arbitrary: fc.constant<Array<readonly [string, string]>>([]) }, { weight: 2, arbitrary: extraHeaders }),
    })
    .map(({ body: b, ...rest }) => ({ ...rest, ...b }));
}

/** The request on the wire for a plan: signed now by the service's clock, with a fresh nonce, over exactly the target and body sent. */
export function toRawRequest(plan: OperationRequestPlan, operation: ContractOperation, context: { host: string; nowSeconds: number; requestId: string }): RawRequest {
  const target = `${fillTemplate(operation.template, plan.pathValues)}${plan.query}`;
  const body = plan.body ? bodyBytes(plan.body) : undefined;
  const headers: Array<readonly [string, string]> = [];
  if (plan.host === 'as is' || plan.host === 'twice') headers.push(['Host', context.host]);
  if (plan.host === 'twice') headers.push(['Host', 'other.example']);
  if (typeof plan.host === 'object') headers.push(['Host', plan.host.value]);
  headers.push(['X-Request-Id', context.requestId]);
  if (plan.contentType !== undefined) headers.push(['Content-Type', plan.contentType]);
  if (body) headers.push(plan.chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)]);
  headers.push(...signingHeaders(plan.auth, { method: plan.method, target, body, nowSeconds: context.nowSeconds }));
  headers.push(...plan.headers);
  return { method: plan.method, target, headers, body: body && plan.chunked ? chunked(body) : body };
}

/** The signing headers of `auth` for one request; a body the signer refuses is signed as {} (see below). */
export function signingHeaders(auth: AuthPlan, request: { method: string; target: string; body: Buffer | undefined; nowSeconds: number }): Array<readonly [string, string]> {
  if (auth.kind === 'unsigned') return [];
  const credential = auth.kind === 'signed' && auth.merchant === 'B' ? MERCHANT_B : MERCHANT_A;
  const ids = auth.kind === "another merchant's IDs" ? { merchantId: MERCHANT_B.merchantId, tenantId: MERCHANT_B.tenantId } : { merchantId: credential.merchantId, tenantId: credential.tenantId };
  const input = {
    apiKey: credential.apiKey,
    secretKey: auth.kind === 'wrong secret' ? 'sk_wrong_0123456789abcdef0123456789' : credential.secretKey,
    ...ids,
    nonce: auth.kind === 'replayed nonce' ? 'fuzz-replayed-nonce' : randomUUID(),
    timestamp: Math.max(0, request.nowSeconds + (auth.kind === 'skewed' ? auth.seconds : 0)),
    method: /^[A-Za-z]{1,16}$/.test(request.method) ? request.method : 'GET',
    path: /^\/[\x21-\x7E]{0,8191}$/.test(request.target) ? request.target : '/',
  };
  // A body the signer refuses (not a flat JSON object) is refused by the service before the signature is compared: sign over {} instead.
  let signed: Array<readonly [string, string]>;
  try {
    signed = Object.entries(sign({ ...input, body: request.body }).headers);
  } catch {
    signed = Object.entries(sign({ ...input, body: '{}' }).headers);
  }
  if (auth.kind !== 'tampered') return signed;
  const at = signed.findIndex(([name]) => name === auth.header);
  const [name, value] = signed[at] as readonly [string, string];
  const change = auth.change;
  if (change === 'remove') return signed.filter((_, i) => i !== at);
  if (change === 'duplicate') return [...signed, [name, value]];
  if (change === 'lower-case name') return signed.map((h, i) => (i === at ? [name.toLowerCase(), value] : h));
  return signed.map((h, i) => (i === at ? [name, change.value] : h));
}

function chunked(body: Buffer): Buffer {
  const half = Math.ceil(body.length / 2);
  const parts = [body.subarray(0, half), body.subarray(half)].filter((p) => p.length > 0);
  return Buffer.concat([...parts.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
}
