import type { SigningHeaderValues } from '@paysign/signing';
import type { RateLimitSource } from '../errors/api.exception';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signing headers as the pre-filter read them, once they and the API key and timestamp passed; the signature check does not check them again. No secret. */
    checkedSigningHeaders?: SigningHeaderValues;
    /** The API key whose signature verified; set by the signature check. */
    signedApiKey?: string;
    /** The exact bytes the signature check verified. Handlers act on these only. */
    verifiedBody?: Buffer;
    /** What a 429 limited: an API key, a client address or a dashboard member; counted in the metrics. */
    rateLimitedBy?: RateLimitSource;
    /** The error code answered, or "OK"; logged once per request. */
    outcome?: string;
  }
}

/** Every field the hooks set on a request, the merchant's included (merchants/merchant.ts). */
const REQUEST_CONTEXT_FIELDS = ['checkedSigningHeaders', 'signedApiKey', 'verifiedBody', 'rateLimitedBy', 'outcome', 'merchant'] as const;

/**
 * Declares the fields as Fastify request decorations, so that each request
 * object is built with them, unset: every request then has one shape, and
 * the code that reads them stays fast. A field first set mid-request would
 * give requests several shapes.
 */
export function declareRequestContext(fastify: FastifyInstance): void {
  for (const field of REQUEST_CONTEXT_FIELDS) fastify.decorateRequest(field, undefined);
}
