/**
 * How long a nonce must stay claimed. A request is accepted while
 * |floor(now / 1000) − timestamp| ≤ tolerance, that is until
 * (timestamp + tolerance + 1) × 1000 ms: a window of 2 × tolerance + 1
 * seconds of real time. The nonce is held for the configured TTL, and never
 * for less than the rest of that window, so a request accepted once can never
 * be accepted again, whatever the TTL and tolerance.
 */
export function nonceHoldMs(input: { timestamp: number; nowMs: number; toleranceSeconds: number; nonceTtlSeconds: number }): number {
  const windowClosesAtMs = (input.timestamp + input.toleranceSeconds + 1) * 1000;
  return Math.max(input.nonceTtlSeconds * 1000, windowClosesAtMs - input.nowMs + NONCE_HOLD_MARGIN_MS);
}

/** Added to the rest of the window, for instances whose clocks differ by up to this much. */
export const NONCE_HOLD_MARGIN_MS = 1000;
