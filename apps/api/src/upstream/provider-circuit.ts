/** Who saw a failed call: its source (a merchant, or the service's own work) and, for an enquiry, the bank asked. */
export interface FailureWitness {
  source: string;
  bank?: string;
}

export interface ProviderCircuitOptions {
  /** Failed calls, with no success between them and each within `windowMs` of the last, that open the circuit. */
  failures: number;
  /** How long the circuit stays open before one trial call. */
  openMs: number;
  /** How far back failures count. */
  windowMs: number;
  /** The fewest distinct sources those failures must come from: at 2 or more, one merchant's calls alone never open it. */
  sources: number;
  /** The fewest distinct banks they must come from; 1 (the default): any. */
  banks?: number;
  now: () => number;
}

/**
 * A circuit over calls to a provider: after `failures` failed calls (5xx,
 * timeouts, unreachable) within `windowMs`, with no success between them,
 * seen by at least `sources` distinct sources (and `banks` distinct banks),
 * it opens for `openMs`, and calls are refused without being sent; then one
 * trial call is let through (half-open), and its outcome closes the circuit
 * or, while the failures are still seen by enough sources, opens it again. A 4xx answer is the provider working: it counts as a
 * success. Since a circuit is shared by every merchant, failures that only
 * one merchant sees (its enquiries to a slow bank, say) never open it.
 */
export class ProviderCircuit {
  /** When each of the last `failures` failures happened, oldest first. */
  private readonly lastFailures: number[] = [];
  /** When each source, and each bank, last saw a failure; bounded by the merchants and banks there are. */
  private readonly sourcesSeen = new Map<string, number>();
  private readonly banksSeen = new Map<string, number>();
  private openUntil: number | undefined;
  private trialInFlight = false;

  constructor(private readonly options: ProviderCircuitOptions) {}

  /** `closed`, `open` while refusing calls, or `half-open` once the open time has passed. */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openUntil === undefined) return 'closed';
    return this.options.now() < this.openUntil ? 'open' : 'half-open';
  }

  /** Whether a call may be sent now; in half-open, only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  /** Gives back a call acquired and never sent (another circuit refused it): a trial it held is free again. */
  release(): void {
    this.trialInFlight = false;
  }

  succeeded(): void {
    this.lastFailures.length = 0;
    this.sourcesSeen.clear();
    this.banksSeen.clear();
    this.openUntil = undefined;
    this.trialInFlight = false;
  }

  /** Counts a failed call; answers whether it opened the circuit (a failed trial opens it again, and answers false). */
  failed(witness: FailureWitness): boolean {
    const now = this.options.now();
    this.trialInFlight = false;
    this.sourcesSeen.set(witness.source, now);
    if (witness.bank !== undefined) this.banksSeen.set(witness.bank, now);
    const since = now - this.options.windowMs;
    const banks = this.options.banks ?? 1;
    const widelySeen = seenSince(this.sourcesSeen, since) >= this.options.sources && (banks <= 1 || seenSince(this.banksSeen, since) >= banks);
    if (this.openUntil !== undefined) {
      // A failed trial opens it again only while the failures are still seen widely: one merchant's trials alone never keep it open for all.
      this.openUntil = widelySeen ? now + this.options.openMs : undefined;
      return false;
    }
    this.lastFailures.push(now);
    if (this.lastFailures.length > this.options.failures) this.lastFailures.shift();
    const enough = this.lastFailures.length >= this.options.failures && (this.lastFailures[0] as number) > since;
    if (!enough || !widelySeen) return false;
    this.openUntil = now + this.options.openMs;
    return true;
  }
}

/** How many keys were seen after `since`; the older ones are dropped. */
function seenSince(seen: Map<string, number>, since: number): number {
  for (const [key, at] of seen) if (at <= since) seen.delete(key);
  return seen.size;
}

/** Injection token of the upstream providers' health, by provider: `degraded` while a circuit of one of its kinds of call is not closed. */
export const ProviderHealth = Symbol('ProviderHealth');
export type ProviderHealth = () => Record<string, 'up' | 'degraded'>;
