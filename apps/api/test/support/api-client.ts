import { randomUUID } from 'node:crypto';
import { ContractValidator } from '@paysign/contracts/testing';
import { sign } from '@paysign/signing';
import type { TestCredential } from './credentials';

const thisBuildsContract = new ContractValidator();

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  json: Record<string, unknown>;
}

export interface SignedCallOptions {
  method?: string;
  /** The path as sent, with any query. */
  path: string;
  /** The exact JSON text to send. */
  body?: string;
  credential: TestCredential;
  nonce?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Replaces or removes (undefined) headers after signing. */
  headers?: Record<string, string | undefined>;
  /** Signs these bytes instead of the body sent. */
  signedBody?: string;
  contentType?: string;
  /** The contract the response must conform to; default this build's. Another release's service answers by its own. */
  contract?: ContractValidator;
}

/** Signs and sends one request, and checks the response against the contract. */
export async function signedCall(baseUrl: string, options: SignedCallOptions): Promise<ApiResponse> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const { headers } = sign({
    apiKey: options.credential.apiKey,
    secretKey: options.credential.secretKey,
    merchantId: options.credential.merchantId,
    tenantId: options.credential.tenantId,
    nonce: options.nonce ?? randomUUID(),
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    method,
    path: options.path,
    body: options.signedBody ?? options.body,
  });
  const sent: Record<string, string> = { ...(headers as Record<string, string>) };
  if (options.body !== undefined) sent['content-type'] = options.contentType ?? 'application/json';
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const existing = Object.keys(sent).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing) delete sent[existing];
    if (value !== undefined) sent[name] = value;
  }
  return send(baseUrl, { method, path: options.path, headers: sent, body: options.body, contract: options.contract });
}

/** Sends a request as given and checks the response against the contract. */
export async function send(baseUrl: string, request: { method: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array; contract?: ContractValidator }): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  const body: unknown = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : text;
  if (['/payment/merchant-api', '/payment/api', '/payment/checkout/', '/payment/provider-webhooks/'].some((prefix) => request.path.startsWith(prefix)) || request.path.startsWith('/payment/health')) {
    const violations = (request.contract ?? thisBuildsContract).validateResponse({ method: request.method, path: request.path, status: response.status, body });
    const outsideContract = violations.length === 1 && /is not (a path|an operation) of the contract$/.test(violations[0] ?? '');
    if (violations.length > 0 && !outsideContract) {
      throw new Error(`${request.method} ${request.path} answered ${response.status} outside the contract:\n${violations.join('\n')}\n${text}`);
    }
  }
  return { status: response.status, headers: response.headers, body, json: (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown> };
}
