import type { NonceStore } from '../nonce/nonce-store.interface';
import type { RateLimitRefusal, RateLimitRule, RateLimitStore } from '../rate-limit/rate-limit-store.interface';
import type { NewPayin, PayinKey, PayinListQuery, PayinRepository, StoredPayin } from '../payins/payin-repository.interface';
import type { PayinTransition } from '../payins/payin-states';
import type { OutboxEventOf } from '../webhooks/webhook-event';
import type { StoreProbe } from './store-probe';

/** A NonceStore whose every call goes through its probe: timed, counted, and logged when the store goes and comes back. */
export class InstrumentedNonceStore implements NonceStore {
  constructor(
    private readonly inner: NonceStore,
    private readonly probe: StoreProbe,
  ) {}

  claim(apiKey: string, nonce: string, holdMs: number): Promise<boolean> {
    return this.probe.observe('claim', () => this.inner.claim(apiKey, nonce, holdMs));
  }

  ping(): Promise<void> {
    return this.probe.observe('ping', () => this.inner.ping());
  }

  isFull(): boolean {
    return this.inner.isFull();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A PayinRepository whose every call goes through its probe. */
export class InstrumentedPayinRepository implements PayinRepository {
  constructor(
    private readonly inner: PayinRepository,
    private readonly probe: StoreProbe,
  ) {}

  insertIfAbsent(payin: NewPayin): Promise<{ created: boolean; payin: StoredPayin }> {
    return this.probe.observe('insert', () => this.inner.insertIfAbsent(payin));
  }

  find(key: PayinKey): Promise<StoredPayin | undefined> {
    return this.probe.observe('find', () => this.inner.find(key));
  }

  findByCheckoutTokenHash(tokenHash: string): Promise<StoredPayin | undefined> {
    return this.probe.observe('find', () => this.inner.findByCheckoutTokenHash(tokenHash));
  }

  transition(key: PayinKey, transition: PayinTransition, now: Date, eventOf: OutboxEventOf): Promise<StoredPayin | undefined> {
    return this.probe.observe('transition', () => this.inner.transition(key, transition, now, eventOf));
  }

  expireDue(now: Date, options: { limit: number; merchantId?: string }, eventOf: OutboxEventOf): Promise<PayinKey[]> {
    return this.probe.observe('expire', () => this.inner.expireDue(now, options, eventOf));
  }

  list(query: PayinListQuery): Promise<StoredPayin[]> {
    return this.probe.observe('list', () => this.inner.list(query));
  }

  ping(): Promise<void> {
    return this.probe.observe('ping', () => this.inner.ping());
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

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
