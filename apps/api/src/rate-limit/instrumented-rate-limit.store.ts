import type { StoreProbe } from '../stores/store-probe';
import type { RateLimitRefusal, RateLimitRule, RateLimitStore } from './rate-limit-store.interface';

/** A RateLimitStore whose every call goes through its probe. */
export class InstrumentedRateLimitStore implements RateLimitStore {
  constructor(
    private readonly inner: RateLimitStore,
    private readonly probe: StoreProbe,
  ) {}

  hit(tracker: string, rules: readonly RateLimitRule[]): Promise<RateLimitRefusal | undefined> {
    return this.probe.observe('increment', () => this.inner.hit(tracker, rules));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
