import * as os from 'node:os';
import { parseArgs } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { Clock } from '../config/clock';
import { SqlClient } from '../db/sql-client';
import { displayTextError } from '../http/display-text';
import { Ledger } from '../ledger/ledger';
import { MerchantStore, type Actor } from '../merchants/merchant-store';
import { amountOf, moneyFromAmount } from '../money/money';
import { PayinRepository } from '../payins/payin-repository.interface';
import { ProviderPayments } from '../payins/provider-payments';
import { PayoutDispatcher } from '../payouts/payout-dispatcher';
import { PayoutStore } from '../payouts/payout-store';
import { RefundDispatcher } from '../refunds/refund-dispatcher';
import { RefundStore } from '../refunds/refund-store';
import { Reconciler, type DayReport } from './reconciler';
import { CORRECTIONS, resolveDiscrepancy, ResolveRefusal, type CorrectionKind } from './reconciliation-resolve';
import { ReconciliationStore, type StoredDiscrepancy } from './reconciliation-store';

/** What `reconcile` exits with: a run that found discrepancies, and one that failed, each its own code. */
export const RECONCILE_EXIT = { clean: 0, discrepancies: 1, usage: 2, failed: 3 } as const;

export const RECONCILE_USAGE = `Usage:
  reconcile --date YYYY-MM-DD [--json]
                          Reconciles that UTC day of every configured provider's records with ours, now, and prints the
                          report. Exits 0 when clean, 1 when discrepancies were found, 3 when a run failed.
  reconcile list [--open] [--limit N]
                          Discrepancies, newest first; --open: only those not yet resolved.
  reconcile resolve --id N --reason TEXT [--correct requery|reverse|journal] [--amount NAIRA] [--merchant-id M]
                          Records how the discrepancy was settled: without --correct, acknowledged (nothing moves);
                          requery asks the object's provider of record now; reverse reverses a paid payout the provider
                          reports reversed; journal posts a correction journal of --amount (negative: a debit) between
                          the merchant's available balance and the provider's settlement account.

Every command takes --json and --actor NAME (default: the OS user), and runs with the service's environment.`;

export interface CommandOutput {
  code: number;
  out: string[];
}

/** Runs `reconcile …` on a started app (its jobs not running); an operator's mistake is a message and exit code 2. */
export async function runReconcileCommand(argv: readonly string[], app: INestApplicationContext): Promise<CommandOutput> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { date: { type: 'string' }, json: { type: 'boolean' }, open: { type: 'boolean' }, limit: { type: 'string' }, id: { type: 'string' }, reason: { type: 'string' }, correct: { type: 'string' }, amount: { type: 'string' }, 'merchant-id': { type: 'string' }, actor: { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    return { code: RECONCILE_EXIT.usage, out: [`${(error as Error).message}\n\n${RECONCILE_USAGE}`] };
  }
  const { values, positionals } = parsed;
  if (values.help) return { code: 0, out: [RECONCILE_USAGE] };
  const actor: Actor = { actor: values.actor ?? `${os.userInfo().username}@${os.hostname()}`, channel: 'command' };
  const store = app.get(ReconciliationStore);
  try {
    const [command] = positionals;
    if (command === undefined) {
      const day = checkedDay(values.date, () => new Date(app.get<symbol, Clock>(Clock)()));
      const report = await app.get(Reconciler).reconcileDay(day, { trigger: 'command', signal: AbortSignal.timeout(3_600_000) });
      const code = report.runs.some((run) => run.outcome === 'failed') ? RECONCILE_EXIT.failed : report.runs.some((run) => run.outcome === 'discrepancies') ? RECONCILE_EXIT.discrepancies : RECONCILE_EXIT.clean;
      return { code, out: values.json ? [JSON.stringify(report)] : reportLines(report) };
    }
    if (command === 'list' && positionals.length === 1) {
      const limit = values.limit === undefined ? 100 : /^[1-9][0-9]{0,4}$/.test(values.limit) ? Number(values.limit) : refuse('--limit must be a whole number from 1 to 99999.');
      const items = await store.list({ open: values.open === true, limit });
      return { code: 0, out: values.json ? [JSON.stringify({ items })] : items.length ? items.map(discrepancyLine) : [values.open ? 'No open discrepancy.' : 'No discrepancy.'] };
    }
    if (command === 'resolve' && positionals.length === 1) {
      const id = values.id !== undefined && /^[1-9][0-9]{0,18}$/.test(values.id) ? values.id : refuse('resolve needs --id, the number reconcile list shows.');
      const reason = values.reason ?? refuse('resolve needs --reason: what was found, and why this settles it.');
      const reasonError = reason.trim() === '' ? new Error('--reason must say why.') : reason.length > 500 ? new Error('--reason must be at most 500 characters.') : displayTextError('--reason', reason);
      if (reasonError) refuse(reasonError.message);
      const correct = values.correct === undefined ? undefined : (CORRECTIONS as readonly string[]).includes(values.correct) ? (values.correct as CorrectionKind) : refuse(`--correct must be one of ${CORRECTIONS.join(', ')}.`);
      if ((values.amount !== undefined || values['merchant-id'] !== undefined) && correct !== 'journal') refuse('--amount and --merchant-id go with --correct journal only.');
      const amountMinor = values.amount === undefined ? undefined : naira(values.amount);
      const clock = app.get<symbol, Clock>(Clock);
      const resolved = await resolveDiscrepancy(
        {
          client: app.get<symbol, SqlClient>(SqlClient),
          store,
          ledger: app.get(Ledger),
          merchants: app.get(MerchantStore),
          payins: app.get<symbol, PayinRepository>(PayinRepository),
          providerPayments: app.get(ProviderPayments),
          payouts: app.get(PayoutStore),
          payoutDispatcher: app.get(PayoutDispatcher),
          refunds: app.get(RefundStore),
          refundDispatcher: app.get(RefundDispatcher),
          now: () => new Date(clock()),
        },
        { id, reason, actor, ...(correct ? { correct } : {}), ...(amountMinor === undefined ? {} : { amountMinor }), ...(values['merchant-id'] ? { merchantId: values['merchant-id'] } : {}) },
      );
      return { code: 0, out: values.json ? [JSON.stringify(resolved)] : [`Discrepancy ${resolved.id} resolved: ${resolved.resolution}${resolved.correctionJournalId ? ` (journal ${resolved.correctionJournalId})` : ''}. Recorded in the audit trail (merchants audit).`] };
    }
    return refuse(`Unknown command "reconcile ${positionals.join(' ')}".\n\n${RECONCILE_USAGE}`);
  } catch (error) {
    if (error instanceof ResolveRefusal) return { code: RECONCILE_EXIT.usage, out: [error.message] };
    throw error;
  }
}

function refuse(message: string): never {
  throw new ResolveRefusal(message);
}

/** A `YYYY-MM-DD` day that has begun (UTC). */
function checkedDay(text: string | undefined, now: () => Date): string {
  if (text === undefined) refuse(`reconcile needs --date YYYY-MM-DD, the UTC day to reconcile.\n\n${RECONCILE_USAGE}`);
  const at = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : undefined;
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) refuse('--date must be a day, YYYY-MM-DD, such as 2026-03-01.');
  if (at.getTime() > now().getTime()) refuse(`--date ${text} has not begun (UTC): nothing of it can be reconciled yet.`);
  return text;
}

/** Naira with at most 2 decimals, signed, as kobo. */
function naira(text: string): bigint {
  if (!/^-?[0-9]{1,12}(\.[0-9]{1,2})?$/.test(text)) refuse('--amount must be naira with at most 2 decimals, such as 250 or -100.50.');
  return moneyFromAmount(Number(text), 'NGN').minor;
}

const major = (minor: unknown, currency: unknown) => (typeof minor === 'string' ? `${amountOf({ minor: BigInt(minor), currency: String(currency) }).toFixed(2)} ${String(currency)}` : '-');

function discrepancyLine(d: StoredDiscrepancy): string {
  const side = (json: Record<string, unknown> | null) => (json ? `${major(json.amountMinor, json.currency)} ${String(json.status)}` : 'none');
  const ours = d.merchantId ? `${d.merchantId}/${d.ourReference}` : 'none of ours';
  return `#${d.id} ${d.status} ${d.day} ${d.provider} ${d.kind} ${d.objectType} ${ours} (${d.providerReference ?? '-'}) theirs ${d.theirReference ?? '-'}: ours ${side(d.ours)}, theirs ${side(d.theirs)}${d.resolution ? `; ${d.resolution} by ${d.resolvedBy}: ${d.resolutionReason}` : ''}`;
}

function reportLines(report: DayReport): string[] {
  const lines = [`Reconciliation of ${report.day} (UTC)`];
  for (const run of report.runs) {
    lines.push(`${run.provider}: ${run.outcome === 'not_applicable' ? 'not applicable (the provider keeps no records of its own to compare)' : run.outcome} (run ${run.runId})`);
    if (run.error) lines.push(`  failed: ${run.error}. Nothing is known of the day at ${run.provider} until a run completes.`);
    for (const [objectType, count] of Object.entries(run.counts ?? {})) lines.push(`  ${objectType}: ${count.matched} matched, ${count.inFlight} in flight, ${count.ignored} of theirs left aside`);
    if (run.settlements) lines.push(`  settlements: ${run.settlements.count} listed${Object.entries(run.settlements.byCurrency).map(([currency, sum]) => `, ${major(sum.totalMinor, currency)} settled (fees ${major(sum.feesMinor, currency)})`).join('')}; figures only`);
    for (const discrepancy of run.discrepancies) lines.push(`  ${discrepancyLine(discrepancy)}`);
  }
  return lines;
}
