import type { FastifyInstance } from 'fastify';

/**
 * Keeps JSON bodies as raw bytes. The signature is verified over exactly these
 * bytes, and the handler parses the same bytes afterwards, so a verified body
 * can never be re-serialised into something else. Bodies over `bodyLimitBytes`
 * are refused with 413 before they are read in full.
 */
export function registerRawJsonBody(fastify: FastifyInstance, bodyLimitBytes: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(/^application\/json(\s*;.*)?$/i, { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, (_request, body, done) => {
    done(null, body);
  });
}
