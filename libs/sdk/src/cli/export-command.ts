import { PaymentError } from '../errors';
import { REPORT_NAMES, ReportExportError } from '../report-export';
import { EXIT_FAILED, EXIT_OK, UsageError, type CliIo } from './cli-io';
import { CLIENT_OPTIONS, clientFromFlags } from './client-flags';
import { oneOfFlag, parseWithPositionals, requiredFlag } from './flags';

/** Each filter flag and the query parameter it sets; the service says which a report takes, and refuses the others (400). */
const FILTERS = { status: 'status', currency: 'currency', type: 'type', balance: 'balance', 'batch-reference': 'batchReference', 'payin-reference': 'payinReference' } as const;

/**
 * `paysign export <report> --from T --to T [filters] > file.csv`: a report
 * as CSV on standard output, resumed after the last complete record when
 * the transfer is cut, so the file has every row once and one header row.
 * What happens goes to standard error; the file holds complete records only,
 * even when it gives up.
 */
export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const options = {
    ...CLIENT_OPTIONS,
    from: { type: 'string' },
    to: { type: 'string' },
    retries: { type: 'string' },
    'retry-delay-ms': { type: 'string' },
    ...Object.fromEntries(Object.keys(FILTERS).map((flag) => [flag, { type: 'string' }])),
  } as const;
  const { values, positionals } = parseWithPositionals(args, options, ['report']);
  const report = oneOfFlag('<report>', positionals[0] as string, REPORT_NAMES);
  const query: Record<string, string> = { from: requiredFlag(values.from, '--from'), to: requiredFlag(values.to, '--to') };
  for (const [flag, parameter] of Object.entries(FILTERS)) {
    const value = (values as Record<string, unknown>)[flag];
    if (typeof value === 'string') query[parameter] = value;
  }
  const retries = wholeNumber('--retries', values.retries, 5, 100);
  const retryDelayMs = wholeNumber('--retry-delay-ms', values['retry-delay-ms'], 500, 60_000);
  if (!io.write) throw new UsageError('export writes bytes to standard output, which this run has no way to.');
  const client = clientFromFlags(values, io);
  try {
    const done = await client.reports.export({ report, query, write: io.write, retries, retryDelayMs, onResume: (message) => io.stderr(`paysign export: ${message}`) });
    io.stderr(`paysign export: ${report}: ${done.rows} rows, ${done.bytes} bytes${done.attempts > 1 ? `, in ${done.attempts} requests` : ''}.`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ReportExportError) {
      io.stderr(`paysign export: ${error.message} Run again to download the whole report.`);
      return EXIT_FAILED;
    }
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign export: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

function wholeNumber(flag: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const text = String(value);
  if (!/^[0-9]{1,6}$/.test(text) || Number(text) > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got "${text}".`);
  return Number(text);
}
