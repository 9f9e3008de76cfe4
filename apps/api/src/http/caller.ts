import type { FastifyRequest } from 'fastify';

/** The API key a request was signed with, and its merchant: what the key may do is read from the merchant's credentials per request. */
export type Caller = { merchantId: string; apiKey: string };

/** The merchant of a verified request. */
export const merchantOf = (request: FastifyRequest): string => (request.merchant as NonNullable<FastifyRequest['merchant']>).merchantId;

/** The merchant and the API key of a verified request. */
export const callerOf = (request: FastifyRequest): Caller => ({ merchantId: merchantOf(request), apiKey: request.signedApiKey as string });
