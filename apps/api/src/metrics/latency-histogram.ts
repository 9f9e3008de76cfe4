import type { Metric, Registry } from 'prom-client';

/** One label set's series: observe a duration in seconds. */
export interface LatencySeries {
  observe(seconds: number): void;
}

interface Series extends LatencySeries {
  readonly labels: Record<string, string>;
  /** Observations per bucket, not cumulative; the last slot is above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

interface Exposition {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: SampleValue[];
}

interface SampleValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
}

export interface LatencyHistogramConfiguration<Label extends string> {
  name: string;
  help: string;
  labelNames: readonly Label[];
  /** Upper bounds in seconds, ascending. */
  buckets: readonly number[];
  registers: Registry[];
}

/**
 * A Prometheus histogram for the request path, exposed by prom-client's
 * registry exactly as prom-client's own Histogram would be (a test holds the
 * two to the same text). prom-client hashes the label set on every
 * observation; here a label set is resolved once into a series, which a
 * caller keeps, so an observation is a bucket search and three additions.
 * One difference: a reset zeroes the series that prom-client would drop, since
 * callers hold them.
 */
export class LatencyHistogram<Label extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly Label[];
  private readonly bounds: Float64Array;
  private readonly series = new Map<string, Series>();

  constructor(configuration: LatencyHistogramConfiguration<Label>) {
    this.name = configuration.name;
    this.help = configuration.help;
    this.labelNames = configuration.labelNames;
    this.bounds = Float64Array.from(configuration.buckets);
    // The registry reads a metric through get() or getForPromString(), name, help, type and aggregator, and resets it with reset().
    for (const registry of configuration.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one label set, created on first use. */
  with(labels: Record<Label, string>): LatencySeries {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let series = this.series.get(key);
    if (series === undefined) {
      series = this.newSeries(labels);
      this.series.set(key, series);
    }
    return series;
  }

  /** The samples as prom-client's JSON has them: every label on each. */
  async get(): Promise<Exposition> {
    const exposition = await this.getForPromString();
    return { ...exposition, values: exposition.values.map(({ labels, sharedLabels, ...sample }) => ({ ...sample, labels: { ...sharedLabels, ...labels } })) };
  }

  /** The samples as prom-client's text exposition reads them: a series' labels shared, `le` its own. */
  async getForPromString(): Promise<Exposition> {
    const values: SampleValue[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += series.counts[i] as number;
        values.push({ labels: { le: this.bounds[i] as number }, sharedLabels: series.labels, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every series rather than dropping it: callers keep their series, and must go on counting in them. */
  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  private newSeries(labels: Record<Label, string>): Series {
    const bounds = this.bounds;
    const ownLabels: Record<string, string> = {};
    for (const name of this.labelNames) ownLabels[name] = labels[name];
    return {
      labels: ownLabels,
      counts: new Float64Array(bounds.length + 1),
      sum: 0,
      count: 0,
      observe(seconds: number): void {
        if (!Number.isFinite(seconds)) return;
        let bucket = 0;
        while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket++;
        this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
        this.sum += seconds;
        this.count++;
      },
    };
  }
}
