// Typed view of ../vectors.json, the published test vectors. Their values were
// computed by tools/interop/paysign_reference.py, not by this package.
import vectors from '../vectors.json';
import type { BodyErrorCode } from './errors';

export interface SigningVector {
  name: string;
  description: string;
  request: {
    apiKey: string;
    /** Fake: these secrets exist only in the vectors. */
    secretKey: string;
    nonce: string;
    /** The fixed clock: Unix seconds at signing time. */
    timestamp: number;
    method: string;
    path: string;
    /** The exact JSON text sent, or null for no body. */
    body: string | null;
  };
  want: { canonicalBody: string; bodySha256Hex: string; baseString: string; signature: string };
}

export interface NotSignableVector {
  name: string;
  body: string;
  code: BodyErrorCode;
}

export const SIGNING_VECTORS: readonly SigningVector[] = vectors.vectors;
export const NOT_SIGNABLE_VECTORS: readonly NotSignableVector[] = vectors.notSignable as NotSignableVector[];
