import { ServiceMetrics, type WebhookQueueState } from './service-metrics';

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

describe('ServiceMetrics: the build and the seams', () => {
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
});

