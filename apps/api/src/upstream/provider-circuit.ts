/**
 * A provider's circuit: after `failures` consecutive failed calls (5xx,
 * timeouts, unreachable) it opens for `openMs`, and calls are refused without
 * being sent; then one trial call is let through (half-open), and its outcome
 * closes the circuit or opens it again. A 4xx answer is the provider working:
 * it counts as a success.
 */
export class ProviderCircuit {
  private consecutiveFailures = 0;
  private openUntil = 0;
  private trialInFlight = false;

  constructor(
    private readonly failures: number,
    private readonly openMs: number,
    private readonly now: () => number,
  ) {}

  /** `closed`, `open` while refusing calls, or `half-open` once the open time has passed. */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.consecutiveFailures < this.failures) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half-open';
  }

  /** Whether a call may be sent now; in half-open, only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.trialInFlight = false;
  }

  failed(): void {
    this.trialInFlight = false;
    this.consecutiveFailures++;
    if (this.consecutiveFailures >= this.failures) this.openUntil = this.now() + this.openMs;
  }
}

/** Injection token of the upstream providers' health, by provider: `degraded` while a circuit is not closed. */
export const ProviderHealth = Symbol('ProviderHealth');
export type ProviderHealth = () => Record<string, 'up' | 'degraded'>;
