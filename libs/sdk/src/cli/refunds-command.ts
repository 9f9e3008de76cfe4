import { SCHEMAS, type CreateRefundRequest, type Refund } from '@paysign/contracts';
import { PaymentError } from '../errors';
import type { ListRefundsParams } from '../payment-client';
import { EXIT_FAILED, EXIT_OK, UsageError, type CliIo } from './cli-io';
import { CLIENT_OPTIONS, clientFromFlags } from './client-flags';
import { amountFlag, oneOfFlag, parseWithPositionals, requiredFlag, type FlagValues } from './flags';

/**
 * `paysign refunds create`, `show` and `list`: a person giving a customer their
 * money back from a terminal, such as support after a call, and checking where
 * a refund is, through the SDK's client.
 */
export async function refundsCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'create' && action !== 'show' && action !== 'list') throw new UsageError(`expected "create", "show" or "list", got ${action === undefined ? 'nothing' : `"${action}"`}. Run paysign --help.`);
  const run = action === 'create' ? create : action === 'show' ? show : list;
  try {
    return await run(rest, io);
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign refunds ${action}: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

async function create(args: string[], io: CliIo): Promise<number> {
  const options = {
    ...CLIENT_OPTIONS,
    payin: { type: 'string' },
    reference: { type: 'string' },
    amount: { type: 'string' },
    reason: { type: 'string' },
    'customer-note': { type: 'string' },
    'merchant-note': { type: 'string' },
    'notify-url': { type: 'string' },
  } as const;
  const { values } = parseWithPositionals(args, options, []);
  const input: CreateRefundRequest = { reference: requiredFlag(values.reference, '--reference'), payinReference: requiredFlag(values.payin, '--payin') };
  if (values.amount !== undefined) input.amount = amountFlag('--amount', values.amount);
  if (values.reason !== undefined) input.reason = oneOfFlag('--reason', values.reason, SCHEMAS.RefundReason.enum);
  if (values['customer-note'] !== undefined) input.customerNote = values['customer-note'];
  if (values['merchant-note'] !== undefined) input.merchantNote = values['merchant-note'];
  if (values['notify-url'] !== undefined) input.notifyUrl = values['notify-url'];
  const refund = await clientFromFlags(values, io).refunds.create(input);
  io.stdout(`${describe(refund)}${refund.idempotentReplayed ? ' Already created with this reference: shown as it is now, nothing new was created.' : ''}`);
  return EXIT_OK;
}

async function show(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseWithPositionals(args, CLIENT_OPTIONS, ['reference']);
  const refund = await clientFromFlags(values, io).refunds.get(positionals[0] as string);
  io.stdout(describe(refund));
  for (const [label, value] of details(refund)) io.stdout(`  ${label.padEnd(12)}${value}`);
  return EXIT_OK;
}

async function list(args: string[], io: CliIo): Promise<number> {
  const options = { ...CLIENT_OPTIONS, status: { type: 'string' }, payin: { type: 'string' }, 'created-from': { type: 'string' }, 'created-to': { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } } as const;
  const { values } = parseWithPositionals(args, options, []);
  const filters = listFilters(values);
  const page = await clientFromFlags(values, io).refunds.list(filters);
  for (const refund of page.data) io.stdout(`  ${refund.reference}  payin ${refund.payinReference}  ${money(refund)}  ${refund.status}  ${refund.createdAt}`);
  if (page.data.length === 0) io.stdout('No refunds match.');
  // One page, as the service answers it; the cursor continues from where it ended, with the same filters.
  if (page.hasMore && page.nextCursor) io.stderr(`More refunds match: run the same command with --cursor ${page.nextCursor}`);
  return EXIT_OK;
}

function listFilters(values: FlagValues): ListRefundsParams {
  const filters: ListRefundsParams = {};
  if (values.status !== undefined) filters.status = oneOfFlag('--status', String(values.status), SCHEMAS.RefundStatus.enum);
  if (values.payin !== undefined) filters.payinReference = String(values.payin);
  if (values['created-from'] !== undefined) filters.createdFrom = String(values['created-from']);
  if (values['created-to'] !== undefined) filters.createdTo = String(values['created-to']);
  if (values.limit !== undefined) {
    if (!/^[1-9][0-9]*$/.test(String(values.limit))) throw new UsageError(`--limit must be a whole number of refunds per page, from 1 to ${SCHEMAS.PageLimit.maximum}, got "${values.limit}".`);
    filters.limit = Number(values.limit);
  }
  if (values.cursor !== undefined) filters.cursor = String(values.cursor);
  return filters;
}

const money = (refund: Refund) => `${refund.currency} ${refund.amount.toFixed(2)}`;

/** One line a person reads first: the refund, its payin, where it is and what to do next. */
function describe(refund: Refund): string {
  const state = refund.status === 'FAILED' && refund.failureReason ? `FAILED (${refund.failureReason})` : refund.status;
  const next: Partial<Record<Refund['status'], string>> = {
    PENDING: ` Held from ${refund.fundedFrom}; not yet sent to the provider, so it can still be cancelled.`,
    REQUIRES_ACTION: " The provider cannot return the money the way the customer paid: give the customer's bank account (refunds.setAccount with an account enquiry).",
  };
  const attention = refund.needsAttention ? ' Needs attention: the provider has not answered definitively; an operator is looking into it. Never create a second refund for it.' : '';
  return `Refund ${refund.reference} of payin ${refund.payinReference}: ${state}, ${money(refund)}.${next[refund.status] ?? ''}${attention}`;
}

/** The fields behind the first line, each only when it has a value. */
function details(refund: Refund): Array<[string, string]> {
  const account = refund.account ? `${refund.account.bankCode} ${refund.account.accountNumber} ${refund.account.accountName}` : null;
  const rows: Array<[string, string | null]> = [
    ['reason', refund.reason],
    ['customer', refund.customerNote],
    ['note', refund.merchantNote],
    ['provider', refund.provider === null ? null : `${refund.provider}${refund.providerReference ? ` ${refund.providerReference}` : ''}`],
    ['account', account],
    ['fee back', refund.feeReturned > 0 ? `${refund.currency} ${refund.feeReturned.toFixed(2)}` : null],
    ['created', refund.createdAt],
    ['sent', refund.processingAt],
    ['completed', refund.completedAt],
    ['next check', refund.nextStatusCheckAt],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}
