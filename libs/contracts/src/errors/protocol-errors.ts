import type { ErrorDefinition } from './error-registry';

/**
 * The errors of the request itself, whatever the resource: its signature and
 * headers, a provider's webhook, its body, its size and its route. The
 * registry (error-registry.ts) spreads them first.
 */
export const PROTOCOL_ERRORS = {
  AUTH_HEADER_MISSING: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{detail}',
  },
  AUTH_HEADER_MALFORMED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{detail}',
  },
  AUTH_UNKNOWN_API_KEY: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{detail}',
  },
  AUTH_TIMESTAMP_SKEW: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{detail}',
  },
  AUTH_SIGNATURE_MISMATCH: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{detail}',
  },
  AUTH_NONCE_REPLAYED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: 'X-Nonce {nonce} was already used with this API key. Sign every request, including retries, with a new nonce.',
  },
  AUTH_MERCHANT_MISMATCH: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: 'X-Merchant-ID and X-Tenant-ID must be those of the merchant that owns X-API-KEY. Use the IDs issued with the key.',
  },
  PROVIDER_SIGNATURE_INVALID: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: 'The {header} header is missing or does not match this body. Only {provider} sends events to this URL, signed with the secret key this service is configured with.',
  },
  PROVIDER_UNAVAILABLE: {
    status: 503,
    type: 'unavailable',
    retryable: true,
    message: '{provider} did not answer the verification this event needs, so nothing moved. The provider sends the event again.',
  },
  PROVIDER_ADDRESS_NOT_ALLOWED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'Provider webhooks are taken only from the addresses in PROVIDER_WEBHOOK_ALLOWED_ADDRESSES, and {address} is not one of them. Nothing was read or moved.',
  },
  INVALID_JSON: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  INVALID_UTF8: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  BODY_NOT_OBJECT: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  NESTED_VALUE: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  DUPLICATE_KEY: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  TOO_MANY_FIELDS: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: '{detail}',
  },
  VALIDATION_FAILED: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: 'The request has {count} invalid {fieldOrFields}: {problems}',
  },
  MALFORMED_REQUEST: {
    status: 400,
    type: 'invalid_request',
    retryable: false,
    message: 'The request could not be parsed as HTTP/1.1. Check the request line, the header syntax and Content-Length.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    type: 'unavailable',
    retryable: true,
    message: 'The request did not arrive within {timeoutMs} ms, so the connection was closed. Send the head and the whole body without pausing.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    type: 'invalid_request',
    retryable: false,
    message: 'The request head is larger than the service reads. Send fewer or shorter headers.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    type: 'invalid_request',
    retryable: false,
    message: 'Content-Type must be application/json. Set the header and send a JSON object.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    type: 'invalid_request',
    retryable: false,
    message: 'The request body is larger than {limitBytes} bytes. Send a smaller body.',
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No operation at this method and path. Check the path against the API reference at /payment/docs; it includes the /payment prefix.',
  },
} as const satisfies Record<string, ErrorDefinition>;
