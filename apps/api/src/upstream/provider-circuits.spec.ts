import { ProviderCircuits, sourceOf, type CallKind, type ProviderCircuitSettings } from './provider-circuits';

const SETTINGS: ProviderCircuitSettings = { failures: 3, openSeconds: 30, windowSeconds: 60, sources: 2, enquiryBanks: 2 };

/** The provider's circuits on a clock the test moves; `fail` sends one call that fails, for the merchant given. */
function circuitsAt(settings: Partial<ProviderCircuitSettings> = {}) {
  const clock = { ms: 1_000_000 };
  const circuits = new ProviderCircuits({ ...SETTINGS, ...settings }, () => clock.ms);
  const fail = (merchantId: string | null, call: { kind: CallKind; bank?: string }) => {
    const permit = circuits.acquire(call);
    if ('refusedBy' in permit) throw new Error(`refused by ${permit.refusedBy}`);
    return permit.failed(sourceOf(merchantId));
  };
  const sent = (call: { kind: CallKind; bank?: string }) => !('refusedBy' in circuits.acquire(call));
  return { circuits, clock, fail, sent };
}

describe('ProviderCircuits', () => {
  it('keeps one merchant\'s enquiries to a slow bank from refusing anyone\'s calls, its own included', () => {
    const { circuits, fail, sent } = circuitsAt();
    for (let i = 0; i < 8; i++) fail('MCH-A', { kind: 'enquiry', bank: '058' });
    expect(circuits.state).toBe('closed');
    expect(sent({ kind: 'enquiry', bank: '044' })).toBe(true);
    expect(sent({ kind: 'enquiry', bank: '058' })).toBe(true);
    expect(sent({ kind: 'payin_start' })).toBe(true);
    expect(sent({ kind: 'transfer' })).toBe(true);
  });

  it('opens a slow bank\'s own circuit when several merchants see it fail, and leaves the provider up for the other banks', () => {
    const { circuits, fail, sent } = circuitsAt();
    expect([fail('MCH-A', { kind: 'enquiry', bank: '058' }), fail('MCH-A', { kind: 'enquiry', bank: '058' }), fail('MCH-B', { kind: 'enquiry', bank: '058' })]).toEqual([[], [], ['bank:058']]);
    expect(circuits.states()).toMatchObject({ enquiry: 'closed', 'bank:058': 'open' });
    expect(circuits.state).toBe('closed');
    expect(circuits.acquire({ kind: 'enquiry', bank: '058' })).toEqual({ refusedBy: 'bank:058' });
    expect(sent({ kind: 'enquiry', bank: '044' })).toBe(true);
  });

  it('opens the enquiry circuit when several merchants see enquiries fail at several banks', () => {
    const { circuits, fail } = circuitsAt();
    fail('MCH-A', { kind: 'enquiry', bank: '058' });
    fail('MCH-B', { kind: 'enquiry', bank: '044' });
    expect(fail('MCH-A', { kind: 'enquiry', bank: '033' })).toEqual(['enquiry']);
    expect(circuits.acquire({ kind: 'enquiry', bank: '011' })).toEqual({ refusedBy: 'enquiry' });
    expect(circuits.state).toBe('open');
  });

  it.each<[string, { failing: CallKind; others: CallKind[] }]>([
    ['payin starts', { failing: 'payin_start', others: ['enquiry', 'transfer', 'verify', 'refund'] }],
    ['transfers', { failing: 'transfer', others: ['enquiry', 'payin_start', 'verify', 'refund'] }],
    ['verifies', { failing: 'verify', others: ['enquiry', 'payin_start', 'transfer', 'refund'] }],
  ])('opens the circuit of failing %s only, and shows the provider degraded', (_name, { failing, others }) => {
    const { circuits, fail, sent } = circuitsAt();
    for (const merchant of ['MCH-A', 'MCH-B', null]) fail(merchant, { kind: failing });
    expect(circuits.state).toBe('open');
    expect(sent({ kind: failing })).toBe(false);
    for (const kind of others) expect(sent({ kind, bank: '044' })).toBe(true);
  });

  it('gives back a bank\'s trial when the enquiry circuit refuses the call', () => {
    const { circuits, clock, fail } = circuitsAt();
    expect([fail('MCH-A', { kind: 'enquiry', bank: '058' }), fail('MCH-B', { kind: 'enquiry', bank: '058' }), fail('MCH-A', { kind: 'enquiry', bank: '058' })]).toEqual([[], [], ['bank:058']]);
    clock.ms += 5_000;
    expect(fail('MCH-B', { kind: 'enquiry', bank: '044' })).toEqual(['enquiry']);
    clock.ms += 25_000;
    expect(circuits.states()).toMatchObject({ 'bank:058': 'half-open', enquiry: 'open' });
    expect(circuits.acquire({ kind: 'enquiry', bank: '058' })).toEqual({ refusedBy: 'enquiry' });
    clock.ms += 5_000;
    // Bank 058's trial was given back when the enquiry circuit refused the call: the next enquiry there may be it.
    expect('refusedBy' in circuits.acquire({ kind: 'enquiry', bank: '058' })).toBe(false);
  });
});
