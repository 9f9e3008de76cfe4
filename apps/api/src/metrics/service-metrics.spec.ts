import { ServiceMetrics, type LedgerCheckState, type WebhookQueueState } from './service-metrics';

/** The value of an unlabelled sample in the Prometheus text. */
const sample = (text: string, name: string) => text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1];

describe('ServiceMetrics: the webhook queue', () => {
  it('reads the queue once per scrape for both its gauges', async () => {
    const metrics = new ServiceMetrics();
    const reads: WebhookQueueState[] = [
      { pending: 3, lagSeconds: 12.5 },
      { pending: 0, lagSeconds: 0 },
    ];
    let count = 0;
    metrics.watchWebhookQueue(async () => reads[count++] as WebhookQueueState);

    const first = await metrics.registry.metrics();
    expect([sample(first, 'paysign_webhook_queue_depth'), sample(first, 'paysign_webhook_queue_lag_seconds'), count]).toEqual(['3', '12.5', 1]);
    const second = await metrics.registry.metrics();
    expect([sample(second, 'paysign_webhook_queue_depth'), sample(second, 'paysign_webhook_queue_lag_seconds'), count]).toEqual(['0', '0', 2]);
  });

  it('shows NaN in both when the store cannot be read, and the next scrape reads again', async () => {
    const metrics = new ServiceMetrics();
    let fail = true;
    metrics.watchWebhookQueue(async () => {
      if (fail) throw new Error('connection refused');
      return { pending: 1, lagSeconds: 0.25 };
    });
    const failed = await metrics.registry.metrics();
    // prom-client's spelling of NaN, which Prometheus reads regardless of case.
    expect([sample(failed, 'paysign_webhook_queue_depth'), sample(failed, 'paysign_webhook_queue_lag_seconds')]).toEqual(['Nan', 'Nan']);
    fail = false;
    const recovered = await metrics.registry.metrics();
    expect([sample(recovered, 'paysign_webhook_queue_depth'), sample(recovered, 'paysign_webhook_queue_lag_seconds')]).toEqual(['1', '0.25']);
  });
});

describe('ServiceMetrics: what needs an operator', () => {
  it('counts every payin flagged needsAttention, whatever the reason, and payouts and refunds by reason only', async () => {
    const metrics = new ServiceMetrics();
    metrics.needsAttention('payin', 'no_answer');
    metrics.needsAttention('payin', 'provider_retired', 3);
    metrics.needsAttention('payout', 'mismatch');
    metrics.needsAttention('refund', 'no_answer');
    const text = await metrics.registry.metrics();
    expect(sample(text, 'paysign_payins_needing_attention_total')).toBe('4');
    expect(text).toContain('paysign_provider_checks_needing_attention_total{object="payin",reason="provider_retired"} 3');
    expect(text).toContain('paysign_provider_checks_needing_attention_total{object="payout",reason="mismatch"} 1');
  });
});

describe('ServiceMetrics: the build, the seams and the runbooks', () => {
  it('reports the build it was given', async () => {
    const metrics = new ServiceMetrics({ version: '1.2.3', commit: '0123456789abcdef0123456789abcdef01234567' });
    expect(await metrics.registry.metrics()).toContain('paysign_build_info{version="1.2.3",commit="0123456789abcdef0123456789abcdef01234567"} 1');
  });

  it('reports 1 for a seam with no provider and 0 for one with', async () => {
    const metrics = new ServiceMetrics();
    metrics.providersConfigured({ gateway: false, payouts: true });
    const text = await metrics.registry.metrics();
    expect(text).toContain('paysign_provider_not_configured{seam="gateway"} 1');
    expect(text).toContain('paysign_provider_not_configured{seam="payouts"} 0');
  });

  it('reads the runbooks base at each scrape, one series at a time', async () => {
    const metrics = new ServiceMetrics();
    let base = 'http://127.0.0.1:3000/payment/docs/runbooks';
    metrics.watchRunbooks(() => base);
    expect(await metrics.registry.metrics()).toContain(`paysign_runbooks_info{base_url="${base}"} 1`);
    base = 'http://127.0.0.1:41234/payment/docs/runbooks';
    const text = await metrics.registry.metrics();
    expect(text.split('\n').filter((line) => line.startsWith('paysign_runbooks_info{'))).toEqual([`paysign_runbooks_info{base_url="${base}"} 1`]);
  });
});

describe('ServiceMetrics: the ledger check', () => {
  const invariants = ['each journal sums to zero', 'no merchant balance is below zero'];

  it('reports the last check from one read per scrape, every invariant of it, and 0 for no good check yet', async () => {
    const metrics = new ServiceMetrics();
    let reads = 0;
    const states: LedgerCheckState[] = [
      { failures: undefined, lastGoodSeconds: 0 },
      { failures: { 'each journal sums to zero': 2, 'no merchant balance is below zero': 0 }, lastGoodSeconds: 1_700_000_000 },
    ];
    metrics.watchLedgerChecks(async () => states[reads++] as LedgerCheckState, { invariants, intervalSeconds: 3600 });
    const never = await metrics.registry.metrics();
    expect([sample(never, 'paysign_ledger_last_good_check_timestamp_seconds'), sample(never, 'paysign_ledger_check_interval_seconds'), reads]).toEqual(['0', '3600', 1]);
    expect(never).not.toContain('paysign_ledger_invariant_failures{');
    const broken = await metrics.registry.metrics();
    expect(broken).toContain('paysign_ledger_invariant_failures{invariant="each journal sums to zero"} 2');
    expect(broken).toContain('paysign_ledger_invariant_failures{invariant="no merchant balance is below zero"} 0');
    expect([sample(broken, 'paysign_ledger_last_good_check_timestamp_seconds'), reads]).toEqual(['1700000000', 2]);
  });

  it('shows NaN for every invariant and the last good check when the store cannot be read', async () => {
    const metrics = new ServiceMetrics();
    metrics.watchLedgerChecks(async () => Promise.reject(new Error('connection refused')), { invariants, intervalSeconds: 3600 });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'paysign_ledger_last_good_check_timestamp_seconds')).toBe('Nan');
    expect(text).toContain('paysign_ledger_invariant_failures{invariant="each journal sums to zero"} Nan');
    expect(text).toContain('paysign_ledger_invariant_failures{invariant="no merchant balance is below zero"} Nan');
  });
});
