import { ProviderCircuit, type FailureWitness, type ProviderCircuitOptions } from './provider-circuit';

/** A circuit on a clock the test moves. */
function circuitAt(options: Partial<Omit<ProviderCircuitOptions, 'now'>> = {}) {
  const clock = { ms: 1_000_000 };
  const circuit = new ProviderCircuit({ failures: 3, openMs: 30_000, windowMs: 60_000, sources: 2, ...options, now: () => clock.ms });
  return { circuit, clock };
}

const A: FailureWitness = { source: 'merchant:MCH-A' };
const B: FailureWitness = { source: 'merchant:MCH-B' };
const JOBS: FailureWitness = { source: 'service' };

describe('ProviderCircuit', () => {
  it.each<[string, { given: FailureWitness[]; want: 'closed' | 'open' }]>([
    ['never opens on one merchant\'s failures alone, however many', { given: Array.from({ length: 50 }, () => A), want: 'closed' }],
    ['opens on failures that two merchants see', { given: [A, A, B], want: 'open' }],
    ['counts the service\'s own work as a source of its own', { given: [JOBS, JOBS, A], want: 'open' }],
    ['needs as many failures as configured, whoever sees them', { given: [A, B], want: 'closed' }],
  ])('%s', (_name, { given, want }) => {
    const { circuit } = circuitAt();
    for (const witness of given) circuit.failed(witness);
    expect(circuit.state).toBe(want);
  });

  it('opens on one source\'s failures when one source is enough (PROVIDER_CIRCUIT_SOURCES=1), as before', () => {
    const { circuit } = circuitAt({ sources: 1 });
    expect([circuit.failed(A), circuit.failed(A), circuit.failed(A)]).toEqual([false, false, true]);
    expect(circuit.state).toBe('open');
  });

  it('opens again on a failed trial while the failures are still seen widely, and closes when only one merchant still sees them', () => {
    const { circuit, clock } = circuitAt();
    for (const witness of [A, A, B]) circuit.failed(witness);
    clock.ms += 30_000;
    expect(circuit.tryAcquire()).toBe(true);
    circuit.failed(A);
    // B's failure is still within the window: the outage is everyone's, and the circuit opens again.
    expect(circuit.state).toBe('open');
    clock.ms += 31_000;
    expect(circuit.tryAcquire()).toBe(true);
    circuit.failed(A);
    // Only A has seen a failure in the last minute: its own trial does not keep the circuit open for B.
    expect(circuit.state).toBe('closed');
  });

  it('forgets failures older than the window, and every failure after a success', () => {
    const { circuit, clock } = circuitAt();
    circuit.failed(A);
    circuit.failed(B);
    clock.ms += 60_000;
    circuit.failed(A);
    expect(circuit.state).toBe('closed');
    circuit.failed(A);
    // Three failures in the window now, but B's was before it: one source.
    expect(circuit.state).toBe('closed');
    circuit.succeeded();
    circuit.failed(B);
    circuit.failed(A);
    expect(circuit.state).toBe('closed');
    circuit.failed(B);
    expect(circuit.state).toBe('open');
  });

  it('refuses calls while open, then lets one trial through, which closes it or opens it again', () => {
    const { circuit, clock } = circuitAt();
    for (const witness of [A, B, A]) circuit.failed(witness);
    expect(circuit.tryAcquire()).toBe(false);
    clock.ms += 30_000;
    expect(circuit.state).toBe('half-open');
    expect(circuit.tryAcquire()).toBe(true);
    expect(circuit.tryAcquire()).toBe(false);
    // The trial fails, for one merchant alone: the provider was failing for several, so it opens again.
    expect(circuit.failed(A)).toBe(false);
    expect(circuit.state).toBe('open');
    clock.ms += 30_000;
    expect(circuit.tryAcquire()).toBe(true);
    circuit.succeeded();
    expect(circuit.state).toBe('closed');
    expect(circuit.tryAcquire()).toBe(true);
  });

  it('frees a trial that was acquired and never sent', () => {
    const { circuit, clock } = circuitAt();
    for (const witness of [A, B, A]) circuit.failed(witness);
    clock.ms += 30_000;
    expect(circuit.tryAcquire()).toBe(true);
    circuit.release();
    expect(circuit.tryAcquire()).toBe(true);
  });

  it('opens only on failures at several banks when asked to count banks', () => {
    const { circuit } = circuitAt({ banks: 2 });
    for (const source of ['merchant:MCH-A', 'merchant:MCH-B', 'merchant:MCH-C']) circuit.failed({ source, bank: '058' });
    expect(circuit.state).toBe('closed');
    circuit.failed({ source: 'merchant:MCH-B', bank: '044' });
    expect(circuit.state).toBe('open');
  });
});
