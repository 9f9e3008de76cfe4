/** Live nonces the in-memory store may be configured to hold: the most for which a false "replayed" (two nonces with one 64-bit fingerprint) stays under 1e-12 per claim. */
export const MAX_MEMORY_NONCES = 18_000_000;
