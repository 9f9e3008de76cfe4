import type { FastifyInstance } from 'fastify';

/** Bodies above this size are refused with 413 before they are read in full. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Keeps JSON bodies as raw bytes. The signature is verified over exactly these
 * bytes, and the handler parses the same bytes afterwards, so a verified body
 * can never be re-serialised into something else.
 */
export function registerRawJsonBody(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(/^application\/json(\s*;.*)?$/i, { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, body);
  });
}
