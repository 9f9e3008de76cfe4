import type { Payout } from '@paysign/contracts';
import { PaymentError } from '../errors';
import { EXIT_FAILED, EXIT_OK, UsageError, type CliIo } from './cli-io';
import { CLIENT_OPTIONS, clientFromFlags } from './client-flags';
import { parseWithPositionals } from './flags';

/**
 * `paysign payouts approve <reference>` and `paysign payouts reject
 * <reference> [--reason R]`: a person deciding a payout from a terminal,
 * signing with their own approver credential.
 */
export async function payoutsCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'approve' && action !== 'reject') throw new UsageError(`expected "approve" or "reject", got ${action === undefined ? 'nothing' : `"${action}"`}. Run paysign --help.`);
  const { values, positionals } = parseWithPositionals(rest, { ...CLIENT_OPTIONS, ...(action === 'reject' ? { reason: { type: 'string' } } : {}) }, ['reference']);
  const reference = positionals[0] as string;
  const client = clientFromFlags(values, io);
  try {
    const payout = action === 'approve' ? await client.payouts.approve(reference) : await client.payouts.reject(reference, values.reason === undefined ? undefined : String(values.reason));
    io.stdout(describe(payout));
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign payouts ${action}: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

function describe(payout: Payout): string {
  const decided = payout.approval?.decidedBy ? ` by ${payout.approval.decidedBy} at ${payout.approval.decidedAt}` : '';
  return `Payout ${payout.reference}: ${payout.status}${payout.approval ? `, approval ${payout.approval.status}${decided}` : ''}; NGN ${payout.amount.toFixed(2)} to ${payout.accountName} (${payout.bankCode} ${payout.accountNumber}).`;
}
