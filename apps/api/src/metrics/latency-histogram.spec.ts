import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { LatencyHistogram } from './latency-histogram';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

describe('LatencyHistogram', () => {
  it("exposes the same text and JSON as prom-client's Histogram fed the same observations", async () => {
    const labelSet = fc.record({ store: fc.constantFrom('nonce store', 'payin store', 'a "quoted" \\ store'), operation: fc.constantFrom('claim', 'insert') });
    const seconds = fc.oneof(fc.constantFrom(...BUCKETS, 0, 20), fc.double({ min: 0, max: 20, noNaN: true }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(labelSet, seconds), { maxLength: 60 }), async (observations) => {
        const [ours, theirs] = [new Registry(), new Registry()];
        const configuration = { name: 'store_seconds', help: 'Store time.', labelNames: ['store', 'operation'] as const, buckets: BUCKETS };
        const histogram = new LatencyHistogram({ ...configuration, registers: [ours] });
        const reference = new Histogram({ ...configuration, registers: [theirs] });
        for (const [labels, value] of observations) {
          histogram.with(labels).observe(value);
          reference.observe(labels, value);
        }
        expect(await ours.metrics()).toBe(await theirs.metrics());
        // Exemplars aside: the service records none, and prom-client's JSON holds an empty one per bucket.
        const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
          metrics.map((metric) => ({ ...metric, values: metric.values.map((sample) => {
            const { exemplar: _exemplar, ...rest } = sample as typeof sample & { exemplar?: unknown };
            return rest;
          }) }));
        expect(await ours.getMetricsAsJSON()).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps one series per label set, which counts from zero again after a reset', async () => {
    const registry = new Registry();
    const histogram = new LatencyHistogram({ name: 'h', help: 'h', labelNames: ['route'], buckets: [1], registers: [registry] });
    const series = histogram.with({ route: '/a' });
    expect(histogram.with({ route: '/a' })).toBe(series);
    series.observe(0.5);
    registry.resetMetrics();
    series.observe(2);
    expect(await registry.metrics()).toContain('h_bucket{le="1",route="/a"} 0\nh_bucket{le="+Inf",route="/a"} 1\nh_sum{route="/a"} 2\nh_count{route="/a"} 1');
  });
});
