import * as os from 'node:os';
import { parseArgs } from 'node:util';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SCHEMAS } from '@paysign/contracts';
import { AttentionActions, AttentionRefusal, RESOLUTIONS, type Resolution } from './attention/attention-actions';
import { ATTENTION_KINDS, listNeedingAttention, type AttentionKind } from './attention/attention-list';
import type { AppConfig } from './config/app-config';
import { AppConfigToken } from './config/app-config.token';
import { Clock } from './config/clock';
import { SqlClient } from './db/sql-client';
import { StoreClock } from './db/store-clock';
import { displayTextError } from './http/display-text';
import { parseDateTime } from './http/rfc3339';
import { MerchantStore, type Actor } from './merchants/merchant-store';
import { PayinEvents } from './payins/payin-events';
import { PayinRepository } from './payins/payin-repository.interface';
import { ProviderPayments } from './payins/provider-payments';
import { PayoutDispatcher } from './payouts/payout-dispatcher';
import { PayoutStore } from './payouts/payout-store';
import { RefundDispatcher } from './refunds/refund-dispatcher';
import { RefundStore } from './refunds/refund-store';
import { DEFAULT_REPLAY_MAX_EVENTS, replayWebhooks } from './webhooks/webhook-replay';

/**
 * `node main.js attention …` and `node main.js webhooks replay …`: the
 * operator's commands on objects and events, run in the deployable against
 * the service's own database and providers, through the same stores and
 * checks the service uses. Each action is recorded in the audit trail.
 */
export const OPERATOR_USAGE = `Usage:
  attention list [--kind payin|payout|refund] [--merchant-id M] [--limit N]
                          Objects flagged needsAttention, oldest first.
  attention requery --kind K --merchant-id M --reference R
                          Ask the object's provider of record now; its answer settles it, or it stays as it was.
  attention resolve --kind K --merchant-id M --reference R --outcome O --reason TEXT [--failure-reason F]
                          Having confirmed the outcome with the provider: O is successful, failed, abandoned (a payin),
                          reversed (a paid payout), or acknowledged (lower the flag, nothing moves). The move posts its
                          journals and sends its event, as a provider's answer would.
  webhooks replay --merchant-id M --from T --to T [--type EVENT_TYPE] [--max N] [--dry-run]
                          One more delivery of each of the merchant's events created in [from, to) (RFC 3339), with the
                          same webhook-id; refused when more than --max (default ${DEFAULT_REPLAY_MAX_EVENTS}) would be sent.

Every command takes --json (one JSON object) and --actor NAME (default: the OS user). It runs with the service's
environment (DATABASE_URL, the providers' keys); on the embedded database, stop the service first.`;

export interface CommandResult {
  code: number;
  out: string[];
}

const FAILURE_REASONS: Record<AttentionKind, readonly string[]> = {
  payin: [...SCHEMAS.DeclineReason.enum, 'too_many_attempts'],
  payout: SCHEMAS.PayoutFailureReason.enum,
  refund: SCHEMAS.RefundFailureReason.enum,
};

/** Runs one command on a started app (its jobs not running); an operator's mistake is a message and exit code 2. */
export async function runOperatorCommand(argv: readonly string[], app: NestFastifyApplication): Promise<CommandResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        actor: { type: 'string' },
        kind: { type: 'string' },
        'merchant-id': { type: 'string' },
        reference: { type: 'string' },
        outcome: { type: 'string' },
        reason: { type: 'string' },
        'failure-reason': { type: 'string' },
        limit: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        type: { type: 'string' },
        max: { type: 'string' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return refuse(`${(error as Error).message}\n\n${OPERATOR_USAGE}`);
  }
  const { values, positionals } = parsed;
  const [group, command] = positionals;
  if (values.help) return { code: 0, out: [OPERATOR_USAGE] };
  const actor: Actor = { actor: values.actor ?? `${os.userInfo().username}@${os.hostname()}`, channel: 'command' };
  try {
    const done = group === 'attention' ? await attention(command, values, app, actor) : group === 'webhooks' && command === 'replay' ? await replay(values, app, actor) : undefined;
    if (!done) return refuse(`Unknown command "${positionals.join(' ')}".\n\n${OPERATOR_USAGE}`);
    return { code: 0, out: values.json ? [JSON.stringify(done.json)] : done.lines };
  } catch (error) {
    if (error instanceof AttentionRefusal) return refuse(error.message);
    throw error;
  }
}

type Values = Partial<Record<'kind' | 'merchant-id' | 'reference' | 'outcome' | 'reason' | 'failure-reason' | 'limit' | 'from' | 'to' | 'type' | 'max', string>> & { 'dry-run'?: boolean };
type Outcome = { json: Record<string, unknown>; lines: string[] };

async function attention(command: string | undefined, values: Values, app: NestFastifyApplication, actor: Actor): Promise<Outcome | undefined> {
  const kind = values.kind === undefined ? undefined : checkedKind(values.kind);
  if (command === 'list') {
    const limit = wholeNumber('--limit', values.limit ?? '100', 1, 10_000);
    const items = await listNeedingAttention(app.get<symbol, SqlClient>(SqlClient), { ...(kind ? { kind } : {}), ...(values['merchant-id'] ? { merchantId: values['merchant-id'] } : {}), limit });
    return { json: { items }, lines: items.length ? items.map((i) => `${i.kind} ${i.merchantId} ${i.reference} ${i.status} ${i.amount} ${i.currency} at ${i.provider ?? 'no provider'} ${i.providerReference ?? ''} since ${i.createdAt}`) : ['Nothing needs attention.'] };
  }
  if (command !== 'requery' && command !== 'resolve') return undefined;
  if (!kind) throw new AttentionRefusal(`attention ${command} needs --kind (${ATTENTION_KINDS.join(', ')}).`);
  const key = { merchantId: need(values, 'merchant-id', command), reference: need(values, 'reference', command) };
  const actions = new AttentionActions(partsOf(app), actor);
  if (command === 'requery') {
    const state = await actions.requery(kind, key);
    return { json: { ...state }, lines: [`${kind} ${key.reference}: ${state.status}${state.needsAttention ? ', still needs attention' : ''}.`] };
  }
  const outcome = need(values, 'outcome', command);
  if (!(RESOLUTIONS as readonly string[]).includes(outcome)) throw new AttentionRefusal(`--outcome must be one of ${RESOLUTIONS.join(', ')}.`);
  const reason = need(values, 'reason', command);
  const reasonError = reason.length > 500 ? new Error('--reason must be at most 500 characters.') : displayTextError('--reason', reason);
  if (reasonError) throw new AttentionRefusal(reasonError.message);
  const failureReason = values['failure-reason'];
  if (failureReason !== undefined && !FAILURE_REASONS[kind].includes(failureReason)) throw new AttentionRefusal(`--failure-reason of a ${kind} must be one of ${FAILURE_REASONS[kind].join(', ')}.`);
  const state = await actions.resolve(kind, key, outcome as Resolution, reason, failureReason);
  return { json: { ...state, resolution: outcome }, lines: [`${kind} ${key.reference} resolved as ${outcome}: now ${state.status}. Recorded in the audit trail (merchants audit --merchant-id ${key.merchantId}).`] };
}

async function replay(values: Values, app: NestFastifyApplication, actor: Actor): Promise<Outcome> {
  const merchantId = need(values, 'merchant-id', 'replay');
  const from = instant('--from', need(values, 'from', 'replay'));
  const to = instant('--to', need(values, 'to', 'replay'));
  if (to.getTime() <= from.getTime()) throw new AttentionRefusal('--to must be after --from.');
  const type = values.type;
  if (type !== undefined && !(SCHEMAS.WebhookEventType.enum as readonly string[]).includes(type)) throw new AttentionRefusal(`--type must be an event type: ${SCHEMAS.WebhookEventType.enum.join(', ')}.`);
  const maxEvents = wholeNumber('--max', values.max ?? String(DEFAULT_REPLAY_MAX_EVENTS), 1, 1_000_000);
  const client = app.get<symbol, SqlClient>(SqlClient);
  const scheduledAttempts = app.get<symbol, AppConfig>(AppConfigToken).webhooks.retryScheduleSeconds.length;
  const result = await replayWebhooks(client, app.get<symbol, StoreClock>(StoreClock), { merchantId, from, to, ...(type ? { type } : {}), maxEvents, dryRun: values['dry-run'] === true, scheduledAttempts });
  if ('tooMany' in result) throw new AttentionRefusal(`${result.tooMany} events of ${merchantId} were created in that range, more than --max ${maxEvents}: narrow the range, or raise --max knowingly.`);
  if (!result.dryRun) await app.get(MerchantStore).audit(client, actor, 'webhooks.replay', { merchantId, detail: { from: result.from, to: result.to, type: result.type, events: result.events } });
  return { json: { ...result }, lines: [`${result.dryRun ? 'Dry run: would schedule' : 'Scheduled'} ${result.events} event(s) of ${merchantId} created from ${result.from} to ${result.to} for one more delivery${result.dryRun ? '' : ', now'}.`] };
}

function partsOf(app: NestFastifyApplication): ConstructorParameters<typeof AttentionActions>[0] {
  const clock = app.get<symbol, Clock>(Clock);
  return {
    client: app.get<symbol, SqlClient>(SqlClient),
    merchants: app.get(MerchantStore),
    payins: app.get<symbol, PayinRepository>(PayinRepository),
    payinEvents: app.get(PayinEvents),
    providerPayments: app.get(ProviderPayments),
    payouts: app.get(PayoutStore),
    payoutDispatcher: app.get(PayoutDispatcher),
    refunds: app.get(RefundStore),
    refundDispatcher: app.get(RefundDispatcher),
    now: () => new Date(clock()),
  };
}

function checkedKind(kind: string): AttentionKind {
  if (!(ATTENTION_KINDS as readonly string[]).includes(kind)) throw new AttentionRefusal(`--kind must be one of ${ATTENTION_KINDS.join(', ')}.`);
  return kind as AttentionKind;
}

function need(values: Values, name: keyof Values & string, command: string): string {
  const value = values[name as 'kind'];
  if (typeof value !== 'string' || value === '') throw new AttentionRefusal(`${command} needs --${name}.`);
  return value;
}

function wholeNumber(name: string, text: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) throw new AttentionRefusal(`${name} must be a whole number from ${min} to ${max}.`);
  return Number(text);
}

function instant(name: string, text: string): Date {
  const parsed = parseDateTime(text);
  if (!parsed) throw new AttentionRefusal(`${name} must be an RFC 3339 time, such as 2026-11-27T00:00:00Z.`);
  return parsed;
}

function refuse(message: string): CommandResult {
  return { code: 2, out: [message] };
}
