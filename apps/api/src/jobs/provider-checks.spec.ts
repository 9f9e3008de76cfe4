import pino, { type Logger } from 'pino';
import { ServiceMetrics } from '../metrics/service-metrics';
import { JobRunner } from './job-runner';
import { nextCheck, ProviderChecks } from './provider-checks';

describe('the next provider check', () => {
  const offsets = (n: number) => [60, 300, 1800][n] ?? 1800 + (n - 2) * 3600;
  const start = 1_000_000;

  it.each<[string, { nowS: number; done: number }, { checks: number; atS: number }]>([
    ['the first step, before it is due', { nowS: 0, done: 0 }, { checks: 0, atS: 60 }],
    ['the step after the one just made', { nowS: 61, done: 1 }, { checks: 1, atS: 300 }],
    ['a step due exactly now is behind', { nowS: 300, done: 1 }, { checks: 2, atS: 1800 }],
    ['past the listed steps, the schedule goes on', { nowS: 5000, done: 3 }, { checks: 3, atS: 5400 }],
    ['a late check skips the steps it missed', { nowS: 10_000, done: 1 }, { checks: 5, atS: 12_600 }],
  ])('%s', (_case, given, want) => {
    expect(nextCheck(offsets, start, start + given.nowS * 1000, given.done)).toEqual({ checks: want.checks, atMs: start + want.atS * 1000 });
  });
});

describe('the provider checks of one kind of object', () => {
  const deps = () => {
    const logged: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
    const log = (level: string) => (fields: Record<string, unknown>, message: string) => void logged.push({ level, fields, message });
    return { logged, logger: { warn: log('warn'), error: log('error') } as unknown as Logger, metrics: new ServiceMetrics(), jobs: new JobRunner({ logger: pino({ level: 'silent' }), metrics: new ServiceMetrics() }) };
  };
  const options = (due: string[], checked: string[]) => ({
    job: 'test-check',
    object: 'payin' as const,
    attentionLogLevel: 'error' as const,
    intervalMs: 1000,
    batchSize: 3,
    leaseMs: 60_000,
    due: { claimDue: async (limit: number) => due.splice(0, limit) },
    check: async (object: string) => void checked.push(object),
  });

  it('checks every object it claimed, and runs again at once while its batches come back full', async () => {
    const checked: string[] = [];
    const checks = new ProviderChecks(options(['a', 'b', 'c', 'd'], checked), deps());
    expect(await checks.runBatch(new AbortController().signal)).toEqual({ again: true });
    expect(await checks.runBatch(new AbortController().signal)).toEqual({ again: false });
    expect(checked).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts and logs a flag at the level its product documents', async () => {
    const { logged, ...rest } = deps();
    const checks = new ProviderChecks(options([], []), { ...rest });
    checks.flagged('no_answer', { reference: 'order-1' }, 'payin needs attention: no final answer');
    expect(logged).toEqual([{ level: 'error', fields: { object: 'payin', reason: 'no_answer', reference: 'order-1' }, message: 'payin needs attention: no final answer' }]);
    expect(await rest.metrics.registry.getSingleMetricAsString('paysign_provider_checks_needing_attention_total')).toContain('paysign_provider_checks_needing_attention_total{object="payin",reason="no_answer"} 1');
    expect(await rest.metrics.registry.getSingleMetricAsString('paysign_payins_needing_attention_total')).toContain('paysign_payins_needing_attention_total 1');
  });
});
