import type { StoreProbe } from '../stores/store-probe';
import type { NonceStore } from './nonce-store.interface';

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
