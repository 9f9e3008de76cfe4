import type { WatchedStore } from '../stores/store-probe';

export type StoreState = 'up' | 'down';

/**
 * Whether each store answers, known without asking it on every health check.
 * A store's probe sees every operation on it: each request's, and a ping sent
 * by the `store-health` job every HEALTH_PROBE_INTERVAL_MS, so that a store no
 * request has used lately is known too. Readiness reads the probes: a health
 * check, which is public and unsigned, costs no store round trip however
 * often it comes, and reflects a failure as soon as a request or a ping has met it.
 */
export class StoreHealth<Name extends string> {
  constructor(private readonly stores: Record<Name, WatchedStore>) {}

  state(): Record<Name, StoreState> {
    const state = {} as Record<Name, StoreState>;
    for (const name of Object.keys(this.stores) as Name[]) state[name] = this.stores[name].probe.answering ? 'up' : 'down';
    return state;
  }

  /** One round of pings. A failure is the probe's to record; the job runner never runs two rounds at once. */
  async pingAll(): Promise<void> {
    await Promise.allSettled(Object.values<WatchedStore>(this.stores).map((store) => store.ping()));
  }
}
