import type { SigningHeaderValues } from '@paysign/signing';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signing headers as the pre-filter read them, once they and the API key and timestamp passed; the guard does not check them again. No secret. */
    checkedSigningHeaders?: SigningHeaderValues;
    /** The API key whose signature verified; set by the signature guard. */
    signedApiKey?: string;
    /** The exact bytes the signature guard verified. Handlers act on these only. */
    verifiedBody?: Buffer;
    /** What a 429 limited: an API key or a client address; counted in the metrics. */
    rateLimitedBy?: 'API key' | 'address';
    /** The error code answered, or "OK"; logged once per request. */
    outcome?: string;
  }
}

export {};
