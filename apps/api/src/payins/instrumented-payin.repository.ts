import type { StoreProbe } from '../stores/store-probe';
import type { PayinEventOf } from './payin-events';
import type { NewPayin, NewPayinAttempt, PayinKey, PayinListQuery, PayinRepository, ProviderStart, StoredPayin, TransitionOptions } from './payin-repository.interface';
import type { PayinTransition } from './payin-states';

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

  transition(key: PayinKey, transition: PayinTransition, now: Date, eventOf: PayinEventOf, options?: TransitionOptions): Promise<StoredPayin | undefined> {
    return this.probe.observe('transition', () => this.inner.transition(key, transition, now, eventOf, options));
  }

  recordAttempt(key: PayinKey, attempt: NewPayinAttempt, maxAttempts: number, eventOf: PayinEventOf): Promise<StoredPayin | undefined> {
    return this.probe.observe('record_attempt', () => this.inner.recordAttempt(key, attempt, maxAttempts, eventOf));
  }

  recordProviderStart(key: PayinKey, start: ProviderStart): Promise<StoredPayin | undefined> {
    return this.probe.observe('provider_start', () => this.inner.recordProviderStart(key, start));
  }

  findByProviderReference(provider: string, providerReference: string): Promise<StoredPayin | undefined> {
    return this.probe.observe('find', () => this.inner.findByProviderReference(provider, providerReference));
  }

  claimProviderChecks(limit: number, leaseMs: number): Promise<StoredPayin[]> {
    return this.probe.observe('claim_provider_checks', () => this.inner.claimProviderChecks(limit, leaseMs));
  }

  flagForAttention(key: PayinKey): Promise<StoredPayin | undefined> {
    return this.probe.observe('flag_for_attention', () => this.inner.flagForAttention(key));
  }

  scheduleProviderCheck(key: PayinKey, nextCheckAt: Date, needsAttention: boolean): Promise<StoredPayin | undefined> {
    return this.probe.observe('schedule_provider_check', () => this.inner.scheduleProviderCheck(key, nextCheckAt, needsAttention));
  }

  expireDue(options: { limit: number; merchantId?: string }, eventOf: PayinEventOf): Promise<PayinKey[]> {
    return this.probe.observe('expire', () => this.inner.expireDue(options, eventOf));
  }

  list(query: PayinListQuery, now: Date): Promise<StoredPayin[]> {
    return this.probe.observe('list', () => this.inner.list(query, now));
  }

  ping(): Promise<void> {
    return this.probe.observe('ping', () => this.inner.ping());
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
