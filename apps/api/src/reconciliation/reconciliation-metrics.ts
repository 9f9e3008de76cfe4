import { Gauge } from 'prom-client';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { DISCREPANCY_KINDS, type DiscrepancyKind } from './reconciliation-match';

type State = { open: Record<DiscrepancyKind, number>; lastSuccessSeconds: number };

/**
 * The reconciliation's gauges, on the service's registry, read from its
 * tables at each scrape: every instance reports the same. NaN when the
 * tables cannot be read. One read serves both gauges of a scrape.
 */
export function watchReconciliation(metrics: ServiceMetrics, read: () => Promise<State>): void {
  let inFlight: Promise<State | undefined> | undefined;
  const state = () =>
    (inFlight ??= read()
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
      }));
  const discrepancies: Gauge<'kind'> = new Gauge({
    name: 'paysign_reconciliation_discrepancies',
    help: 'Open discrepancies between the providers\' records and ours, by kind (reconciliation_discrepancies; every instance reports the same); NaN when the store cannot be read. `node main.js reconcile list --open` names them.',
    labelNames: ['kind'] as const,
    registers: [metrics.registry],
    collect: async () => {
      const read = await state();
      for (const kind of DISCREPANCY_KINDS) discrepancies.set({ kind }, read === undefined ? Number.NaN : read.open[kind]);
    },
  });
  const lastSuccess = new Gauge({
    name: 'paysign_reconciliation_last_success_timestamp_seconds',
    help: 'When the last reconciliation run that completed (clean or with discrepancies) finished, in seconds since the epoch; 0 when none has, NaN when the store cannot be read. PaysignReconciliationStale fires when it is over two days old.',
    registers: [metrics.registry],
    collect: async () => {
      lastSuccess.set((await state())?.lastSuccessSeconds ?? Number.NaN);
    },
  });
}
