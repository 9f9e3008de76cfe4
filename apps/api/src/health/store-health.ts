import type { StoreProbe } from '../stores/store-probe';

/** A store as readiness sees it: its probe, and a ping that goes through that probe. */
export interface WatchedStore {
  probe: StoreProbe;
  ping(): Promise<void>;
}

export type StoreState = 'up' | 'down';

/**
 * Whether each store answers, known without asking it on every health check.
 * A store's probe sees every operation on it: each request's, and a ping sent
 * from here every `intervalMs`, so that a store no request has used lately is
 * known too. Readiness reads the probes: a health check, which is public and
 * unsigned, costs no store round trip however often it comes, and reflects a
 * failure as soon as a request or a ping has met it.
 */
export class StoreHealth<Name extends string> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly stores: Record<Name, WatchedStore>,
    private readonly intervalMs: number,
  ) {}

  state(): Record<Name, StoreState> {
    const state = {} as Record<Name, StoreState>;
    for (const name of Object.keys(this.stores) as Name[]) state[name] = this.stores[name].probe.answering ? 'up' : 'down';
    return state;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pingAll(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops pinging and waits for pings in flight, so that a store is not closed under one. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round of pings; a round still waiting on a slow store is not doubled. A failure is the probe's to record. */
  pingAll(): Promise<void> {
    this.running ??= Promise.allSettled(Object.values<WatchedStore>(this.stores).map((store) => store.ping())).then(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
