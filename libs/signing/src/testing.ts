// Test support shipped to users: the protocol's test vectors, so that a client in
// any language can check itself against the same values.
export { SIGNING_VECTORS, NOT_SIGNABLE_VECTORS } from './signing-vectors.fixture';
export type { SigningVector, NotSignableVector } from './signing-vectors.fixture';
