import type { StoreProbe } from '../stores/store-probe';
import type { PayinEventOf } from './payin-events';
import type { NewPayin, PayinKey, PayinListQuery, PayinRepository, StoredPayin } from './payin-repository.interface';
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

  transition(key: PayinKey, transition: PayinTransition, now: Date, eventOf: PayinEventOf): Promise<StoredPayin | undefined> {
    return this.probe.observe('transition', () => this.inner.transition(key, transition, now, eventOf));
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
