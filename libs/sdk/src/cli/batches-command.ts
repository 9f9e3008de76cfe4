import { AMOUNT_IN_MAJOR_UNITS, BatchFileError, batchRowProblem, duplicateReferences, matchName, readBatchFile, type BatchFileRow, type Payout, type PayoutBatch } from '@paysign/contracts';
import type { BatchItem } from '../batch-builder';
import { PaymentError } from '../errors';
import type { PaymentClient } from '../payment-client';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, readInputFile, type CliIo } from './cli-io';
import { CLIENT_OPTIONS, clientFromFlags } from './client-flags';
import { parseWithPositionals, requiredFlag } from './flags';

type Row = BatchFileRow;
/** Enquiries in flight at once: the service limits enquiries per key per minute, and the client waits out its 429s. */
const ENQUIRY_CONCURRENCY = 4;

/**
 * `paysign batches create --file payouts.csv` and `paysign batches submit
 * <reference>`: a payroll from a spreadsheet, enquired row by row before
 * anything is created, and submitted by a person who checks its count and total.
 */
export async function batchesCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'create') return createFromFile(rest, io);
  if (action === 'show') return show(rest, io);
  if (action === 'submit') return submit(rest, io);
  throw new UsageError(`expected "create", "show" or "submit", got ${action === undefined ? 'nothing' : `"${action}"`}. Run paysign --help.`);
}

async function createFromFile(args: string[], io: CliIo): Promise<number> {
  const options = { ...CLIENT_OPTIONS, file: { type: 'string' }, reference: { type: 'string' }, title: { type: 'string' }, 'dry-run': { type: 'boolean' }, submit: { type: 'boolean' } } as const;
  const { values } = parseWithPositionals(args, options, []);
  const file = requiredFlag(values.file, '--file');
  const reference = requiredFlag(values.reference, '--reference');
  const title = requiredFlag(values.title, '--title');
  const rows = readRows(Buffer.from(await readInputFile(io, '--file', file)).toString('utf8'), file);
  const client = clientFromFlags(values, io);

  // Rows already in the batch (a run that stopped part-way, run again) are kept as they are, never enquired or created again.
  const inBatch = await client.payouts.list({ batchReference: reference, limit: 100 }).toArray();
  const checked = await checkRows(client, rows, new Map(inBatch.map((payout) => [payout.reference, payout])));
  for (const row of checked) io.stdout(row.report);
  const problems = checked.filter((row) => row.item === undefined);
  const totalKobo = rows.reduce((sum, row) => sum + (AMOUNT_IN_MAJOR_UNITS.test(row.amount) ? Math.round(Number(row.amount) * 100) : 0), 0);
  const summary = `${plural(rows.length, 'payout')} totalling NGN ${(totalKobo / 100).toFixed(2)}`;
  if (problems.length > 0) {
    io.stderr(`paysign batches create: ${problems.length} of ${rows.length} rows have a problem (above); nothing was created. Correct the file and run again.`);
    return EXIT_FAILED;
  }
  if (values['dry-run']) {
    io.stdout(`Dry run: batch ${reference} ("${title}") would hold ${summary}. Nothing was created.`);
    return EXIT_OK;
  }
  try {
    const result = await client.payoutBatches.createWithItems({ reference, title, items: checked.map((row) => row.item as BatchItem), submit: values.submit === true });
    for (const failure of result.failures) io.stderr(`${failure.reference}: ${failure.error.code}: ${failure.error.message}`);
    io.stdout(describe(result.batch));
    if (result.failures.length > 0) {
      io.stderr(`paysign batches create: ${plural(result.failures.length, 'payout')} not added (above); the batch was not submitted. Correct those rows and run the same command again: the rows already in the batch are kept.`);
      return EXIT_FAILED;
    }
    if (result.batch.status === 'OPEN') {
      io.stdout(`The file holds ${plural(result.expected.expectedCount, 'payout')} totalling NGN ${result.expected.expectedTotal.toFixed(2)}. Whoever submits checks the batch (paysign batches show ${reference}) against their own records, then: paysign batches submit ${reference} --count <payouts> --total <naira>`);
    }
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign batches create: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

async function show(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseWithPositionals(args, CLIENT_OPTIONS, ['reference']);
  try {
    await printBatch(clientFromFlags(values, io), positionals[0] as string, io);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign batches show: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

async function submit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseWithPositionals(args, { ...CLIENT_OPTIONS, count: { type: 'string' }, total: { type: 'string' } }, ['reference']);
  const reference = positionals[0] as string;
  const client = clientFromFlags(values, io);
  try {
    if (values.count === undefined || values.total === undefined) {
      // A person submits what they checked: show what the batch holds, and ask for both numbers.
      await printBatch(client, reference, io);
      io.stderr('paysign batches submit: give --count and --total: the number of payouts and their total in naira that you expect from your own records. A batch holding anything else is not submitted.');
      return EXIT_USAGE;
    }
    if (!/^[1-9][0-9]*$/.test(String(values.count))) throw new UsageError(`--count must be a whole number of payouts, got "${values.count}".`);
    if (!AMOUNT_IN_MAJOR_UNITS.test(String(values.total))) throw new UsageError(`--total must be an amount in naira with at most 2 decimal places, such as 3800.50, got "${values.total}".`);
    const batch = await client.payoutBatches.submit(reference, { expectedCount: Number(values.count), expectedTotal: Number(values.total) });
    io.stdout(describe(batch));
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    io.stderr(`paysign batches submit: ${error.code}: ${error.message}`);
    return EXIT_FAILED;
  }
}

/** The batch, then each of its payouts, oldest first: what an approver checks before submitting. */
async function printBatch(client: PaymentClient, reference: string, io: CliIo): Promise<void> {
  const batch = await client.payoutBatches.get(reference);
  const payouts = await client.payouts.list({ batchReference: reference, limit: 100 }).toArray();
  io.stdout(describe(batch));
  for (const payout of payouts.reverse()) {
    io.stdout(`  ${payout.reference}  ${payout.bankCode} ${payout.accountNumber}  ${payout.accountName}  NGN ${payout.amount.toFixed(2)}  ${payout.status}`);
  }
}

/** The file's rows, each with its line, after its header; a file that is not a batch file is bad input. */
function readRows(text: string, file: string): Row[] {
  try {
    return readBatchFile(text);
  } catch (error) {
    if (error instanceof BatchFileError) throw new UsageError(`--file ${file} ${error.message}.`);
    throw error;
  }
}

/** Each row checked and enquired, with its report line, and its payout when it has no problem. */
async function checkRows(client: PaymentClient, rows: Row[], inBatch: ReadonlyMap<string, Payout>): Promise<Array<{ report: string; item?: BatchItem }>> {
  const duplicates = duplicateReferences(rows);
  const results: Array<{ report: string; item?: BatchItem }> = [];
  let next = 0;
  const check = async (row: Row): Promise<{ report: string; item?: BatchItem }> => {
    const at = `row ${row.line} ${row.reference || '(no reference)'}: ${row.bankCode} ${row.accountNumber} NGN ${row.amount}`;
    const problem = batchRowProblem(row);
    if (problem !== undefined) return { report: `${at} -> problem: ${problem}` };
    const existing = inBatch.get(row.reference);
    if (existing) {
      const same = existing.bankCode === row.bankCode && existing.accountNumber === row.accountNumber && existing.amount === Number(row.amount) && existing.narration === row.narration;
      if (!same) return { report: `${at} -> problem: the batch already holds payout ${row.reference} for another account, amount or narration` };
      // The payout as it was created: sending it again with its own enquiry is a replay, never a second payout.
      const item: BatchItem = { reference: row.reference, amount: existing.amount, currency: 'NGN', enquiryId: existing.enquiryId, narration: existing.narration };
      if (row.expectedAccountName) item.expectedAccountName = row.expectedAccountName;
      return { report: `${at} -> ${existing.accountName} (already in the batch, ${existing.status})`, item };
    }
    try {
      const enquiry = await client.accounts.enquire({ bankCode: row.bankCode, accountNumber: row.accountNumber });
      const match = row.expectedAccountName ? matchName(row.expectedAccountName, enquiry.accountName) : 'not_checked';
      if (match === 'none') return { report: `${at} -> problem: name mismatch: expected "${row.expectedAccountName}", the bank says "${enquiry.accountName}"` };
      const item: BatchItem = { reference: row.reference, amount: Number(row.amount), currency: 'NGN', enquiryId: enquiry.enquiryId, narration: row.narration };
      if (row.expectedAccountName) item.expectedAccountName = row.expectedAccountName;
      return { report: `${at} -> ${enquiry.accountName} (name ${match.replace('_', ' ')})`, item };
    } catch (error) {
      if (!(error instanceof PaymentError)) throw error;
      return { report: `${at} -> problem: ${error.code}: ${error.message}` };
    }
  };
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index] as Row;
      const duplicate = duplicates.get(index);
      results[index] = duplicate !== undefined ? { report: `row ${row.line} ${row.reference}: -> problem: ${duplicate}` } : await check(row);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENQUIRY_CONCURRENCY, rows.length) }, worker));
  return results;
}

function describe(batch: PayoutBatch): string {
  const byStatus = batch.byStatus.map((total) => `${total.count} ${total.status}`).join(', ') || 'no payouts';
  const approval = batch.status === 'OPEN' && batch.approvalRequired ? '; needs an approver to submit' : '';
  return `Batch ${batch.reference} ("${batch.title}"): ${batch.status}, ${plural(batch.itemCount, 'payout')} totalling NGN ${batch.total.toFixed(2)}, fees NGN ${batch.fees.toFixed(2)} (${byStatus})${approval}.`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
