import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { RateLimitStore } from './rate-limit-store.interface';

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/** How often expired windows are swept out, so that keys seen once do not stay. */
const SWEEP_INTERVAL_MS = 1000;

/** The embedded default: counters in this process, for one instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, _throttlerName?: string): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || (window.expiresAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(key, window);
    } else if (window.expiresAt <= now) {
      window.hits = 0;
      window.expiresAt = now + ttl;
    }
    if (window.blockedUntil <= now) {
      window.hits++;
      if (window.hits > limit) window.blockedUntil = now + blockDuration;
    }
    return record(window, now);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.expiresAt <= now && window.blockedUntil <= now) this.windows.delete(key);
  }
}

function record(window: Window, now: number): ThrottlerStorageRecord {
  const blockedMs = Math.max(0, window.blockedUntil - now);
  return { totalHits: window.hits, timeToExpire: Math.ceil((window.expiresAt - now) / 1000), isBlocked: blockedMs > 0, timeToBlockExpire: Math.ceil(blockedMs / 1000) };
}
