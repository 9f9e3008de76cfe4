import type { RateLimitRefusal, RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** How often expired windows are swept out, so that trackers seen once do not stay. */
const SWEEP_INTERVAL_MS = 1000;

/** The embedded default: counters in this process, for one instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Keyed by tracker, then by rule name. */
  private readonly windows = new Map<string, Map<string, Window>>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(tracker: string, rules: readonly RateLimitRule[]): Promise<RateLimitRefusal | undefined> {
    const now = this.now();
    this.sweep(now);
    let windows = this.windows.get(tracker);
    if (windows === undefined) {
      windows = new Map();
      this.windows.set(tracker, windows);
    }
    for (const rule of rules) {
      let window = windows.get(rule.name);
      if (window === undefined || (window.expiresAt <= now && window.blockedUntil <= now)) {
        window = { hits: 0, expiresAt: now + rule.windowMs, blockedUntil: 0 };
        windows.set(rule.name, window);
      } else if (window.expiresAt <= now) {
        window.hits = 0;
        window.expiresAt = now + rule.windowMs;
      }
      if (window.blockedUntil <= now) {
        window.hits++;
        if (window.hits > rule.limit) window.blockedUntil = now + rule.windowMs;
      }
      if (window.blockedUntil > now) return { rule, retryAfterMs: window.blockedUntil - now };
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [tracker, windows] of this.windows) {
      for (const [name, window] of windows) if (window.expiresAt <= now && window.blockedUntil <= now) windows.delete(name);
      if (windows.size === 0) this.windows.delete(tracker);
    }
  }
}
