import { NONCE_HOLD_MARGIN_MS, nonceHoldMs } from './nonce-hold';

const T = 1_767_225_600;

describe('nonceHoldMs', () => {
  it.each<[string, { given: Parameters<typeof nonceHoldMs>[0]; want: number }]>([
    ['the TTL when it outlasts the window', { given: { timestamp: T, nowMs: T * 1000, toleranceSeconds: 300, nonceTtlSeconds: 600 }, want: 600_000 }],
    [
      'past the TTL at the defaults, for a timestamp 300 s ahead: its window is 601 s long',
      { given: { timestamp: T, nowMs: (T - 300) * 1000, toleranceSeconds: 300, nonceTtlSeconds: 600 }, want: 601_000 + NONCE_HOLD_MARGIN_MS },
    ],
    [
      'the rest of the window when the TTL is shorter: earliest acceptance',
      { given: { timestamp: T, nowMs: (T - 1) * 1000, toleranceSeconds: 1, nonceTtlSeconds: 2 }, want: 3000 + NONCE_HOLD_MARGIN_MS },
    ],
    [
      'the rest of the window in the last millisecond it accepts',
      { given: { timestamp: T, nowMs: (T + 2) * 1000 - 1, toleranceSeconds: 1, nonceTtlSeconds: 0 }, want: 1 + NONCE_HOLD_MARGIN_MS },
    ],
  ])('is %s', (_name, { given, want }) => {
    expect(nonceHoldMs(given)).toBe(want);
  });

  it('outlasts acceptance at every millisecond of the window', () => {
    const toleranceSeconds = 1;
    for (let nowMs = (T - toleranceSeconds) * 1000; nowMs < (T + toleranceSeconds + 1) * 1000; nowMs += 7) {
      const expiresAt = nowMs + nonceHoldMs({ timestamp: T, nowMs, toleranceSeconds, nonceTtlSeconds: 2 });
      const lastAcceptedMs = (T + toleranceSeconds + 1) * 1000 - 1;
      expect(Math.abs(Math.floor(lastAcceptedMs / 1000) - T)).toBeLessThanOrEqual(toleranceSeconds);
      expect(expiresAt).toBeGreaterThan(lastAcceptedMs);
    }
  });
});
