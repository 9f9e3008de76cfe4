import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

interface Encoded {
  br: Buffer;
  gzip: Buffer;
}

/**
 * A file the service serves as it is, built to cost almost nothing per GET:
 * its ETag is its digest, so a browser that has it gets 304; brotli and gzip
 * copies are made once (on first request, off the event loop) and sent to
 * whoever accepts them; and `versionedName` puts the digest in the file name,
 * so that a page can link to it as immutable and a new build is a new URL.
 */
export class StaticAsset {
  readonly etag: string;
  readonly versionedName: string;
  private encoded: Promise<Encoded> | undefined;

  constructor(
    name: string,
    private readonly body: Buffer,
    private readonly contentType: string,
  ) {
    const digest = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    this.etag = `"${digest}"`;
    const dot = name.lastIndexOf('.');
    this.versionedName = `${name.slice(0, dot)}.${digest}${name.slice(dot)}`;
  }

  /** Answers a GET: 304 when the browser's copy is this one, else the body in the best encoding it accepts. */
  async send(request: FastifyRequest, reply: FastifyReply, cacheControl: string): Promise<void> {
    void reply.headers({ etag: this.etag, 'cache-control': cacheControl, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' });
    if (matchesEtag(request.headers['if-none-match'], this.etag)) {
      void reply.status(304).send();
      return;
    }
    void reply.header('content-type', this.contentType);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') {
      void reply.send(this.body);
      return;
    }
    this.encoded ??= Promise.all([brotli(this.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip(this.body, { level: 9 })]).then(([br, gz]) => ({ br, gzip: gz }));
    const encoded = await this.encoded;
    void reply.header('content-encoding', encoding).send(encoded[encoding]);
  }
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** brotli, else gzip, else the body as it is; a coding with q=0 is refused, as RFC 9110 says. */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param)))
      .map(([coding]) => coding?.trim()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
