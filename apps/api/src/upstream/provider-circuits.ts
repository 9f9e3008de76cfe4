import type { ProviderCircuitSettings } from '../config/providers-config';
import { ProviderCircuit } from './provider-circuit';

export type { ProviderCircuitSettings };

/**
 * The kinds of call a provider's circuits are kept by: a failing kind of
 * call refuses only calls of its kind, so that, say, failing enquiries
 * never hold back a payin start or a transfer.
 */
export type CallKind = 'enquiry' | 'payin_start' | 'transfer' | 'verify' | 'refund' | 'bank_list' | 'records';

export const CALL_KINDS: readonly CallKind[] = ['enquiry', 'payin_start', 'transfer', 'verify', 'refund', 'bank_list', 'records'];

/** What a call is, to its circuits: its kind and, for an enquiry, the bank asked. */
export interface CircuitCall {
  kind: CallKind;
  bank?: string;
}

/** A call let through its circuits: its outcome is reported back to each. */
export interface CircuitPermit {
  succeeded(): void;
  /** Answers the names of the circuits this failure opened. */
  failed(source: string): string[];
}

/**
 * A provider's circuits: one per kind of call, and one per bank for
 * enquiries, since a slow or failing bank is not a failing provider (as
 * services facing NIBSS keep each institution's health apart). An enquiry
 * passes both its bank's circuit and the enquiry circuit; the enquiry
 * circuit opens only on failures at several banks. Every circuit opens only
 * on failures from several sources (ProviderCircuit). Readiness reads the
 * kinds' circuits only: a bank's open circuit does not degrade the provider.
 */
export class ProviderCircuits {
  private readonly kinds = new Map<CallKind, ProviderCircuit>();
  /** By the provider's bank code; bounded by the banks the adapter knows (unknown codes are refused before any call). */
  private readonly banks = new Map<string, ProviderCircuit>();

  constructor(
    private readonly settings: ProviderCircuitSettings,
    private readonly now: () => number,
  ) {
    for (const kind of CALL_KINDS) this.kinds.set(kind, this.circuit(kind === 'enquiry' ? settings.enquiryBanks : 1));
  }

  /** `closed` while every kind of call's circuit is; otherwise `open`, or `half-open` when none is open. Banks' circuits are left out. */
  get state(): ProviderCircuit['state'] {
    const states = [...this.kinds.values()].map((circuit) => circuit.state);
    if (states.includes('open')) return 'open';
    return states.includes('half-open') ? 'half-open' : 'closed';
  }

  /** Each circuit's state by name (`enquiry`, …, `bank:058`), for tests and logs. */
  states(): Record<string, ProviderCircuit['state']> {
    const states: Record<string, ProviderCircuit['state']> = {};
    for (const [kind, circuit] of this.kinds) states[kind] = circuit.state;
    for (const [bank, circuit] of this.banks) states[`bank:${bank}`] = circuit.state;
    return states;
  }

  /** A permit for the call, or the name of the circuit that refuses it. */
  acquire(call: CircuitCall): CircuitPermit | { refusedBy: string } {
    const held: Array<[string, ProviderCircuit, FailureBank]> = [];
    const circuits: Array<[string, ProviderCircuit, FailureBank]> = [];
    if (call.kind === 'enquiry' && call.bank !== undefined) circuits.push([`bank:${call.bank}`, this.bankCircuit(call.bank), undefined]);
    circuits.push([call.kind, this.kinds.get(call.kind) as ProviderCircuit, call.bank]);
    for (const entry of circuits) {
      if (!entry[1].tryAcquire()) {
        for (const [, circuit] of held) circuit.release();
        return { refusedBy: entry[0] };
      }
      held.push(entry);
    }
    return {
      succeeded: () => {
        for (const [, circuit] of held) circuit.succeeded();
      },
      failed: (source) => held.filter(([, circuit, bank]) => circuit.failed({ source, ...(bank === undefined ? {} : { bank }) })).map(([name]) => name),
    };
  }

  private bankCircuit(bank: string): ProviderCircuit {
    let circuit = this.banks.get(bank);
    if (!circuit) {
      circuit = this.circuit(1);
      this.banks.set(bank, circuit);
    }
    return circuit;
  }

  private circuit(banks: number): ProviderCircuit {
    const { failures, openSeconds, windowSeconds, sources } = this.settings;
    return new ProviderCircuit({ failures, openMs: openSeconds * 1000, windowMs: windowSeconds * 1000, sources, banks, now: this.now });
  }
}

/** The bank a circuit counts a failure under: the enquiry circuit counts banks; a bank's own circuit does not. */
type FailureBank = string | undefined;

/** The source a call counts as: its merchant, or the service's own work (background jobs with no merchant), as one source. */
export function sourceOf(merchantId: string | null): string {
  return merchantId === null ? 'service' : `merchant:${merchantId}`;
}
