import { parseCsv } from './csv';
import { SCHEMAS } from './generated/schemas';

/** The columns of a batch file, in any order; `expectedAccountName` may be left out, or empty in a row. */
export const BATCH_FILE_REQUIRED_COLUMNS = ['reference', 'bankCode', 'accountNumber', 'amount', 'narration'] as const;
export const BATCH_FILE_COLUMNS = [...BATCH_FILE_REQUIRED_COLUMNS, 'expectedAccountName'] as const;

/** One row of a batch file, its cells trimmed, with its line in the file (the header is line 1). */
export type BatchFileRow = Record<(typeof BATCH_FILE_COLUMNS)[number], string> & { line: number };

/** An amount in major units as the contract takes it: whole units, then at most 2 decimal places, such as 3800.50. */
export const AMOUNT_IN_MAJOR_UNITS = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

const REFERENCE = new RegExp(SCHEMAS.Reference.pattern);
const REFERENCE_RULE = `the reference must be ${SCHEMAS.Reference.minLength} to ${SCHEMAS.Reference.maxLength} characters from [A-Za-z0-9._-], not only dots`;

/** A file that is not a batch file as a whole; its message reads after the file's name, such as `--file payroll.csv has no payouts under its header`. */
export class BatchFileError extends Error {
  override readonly name = 'BatchFileError';
}

/**
 * The rows of a batch file after its header, as the CLI's
 * `paysign batches create --file` and the dashboard read it. Throws
 * BatchFileError for a file that is not CSV, or has no header of the
 * batch columns, or no row.
 */
export function readBatchFile(text: string): BatchFileRow[] {
  let table: string[][];
  try {
    table = parseCsv(text);
  } catch (error) {
    throw new BatchFileError(`is not valid CSV: ${(error as Error).message}`);
  }
  const [header, ...lines] = table;
  const missing = BATCH_FILE_REQUIRED_COLUMNS.filter((column) => !header?.includes(column));
  if (!header || missing.length > 0) throw new BatchFileError(`needs a header row with the columns ${BATCH_FILE_REQUIRED_COLUMNS.join(', ')} (and optionally expectedAccountName); missing: ${missing.join(', ')}`);
  const unknown = header.filter((column) => !(BATCH_FILE_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0) throw new BatchFileError(`has unknown column(s) ${unknown.join(', ')}; the columns are ${BATCH_FILE_COLUMNS.join(', ')}`);
  if (lines.length === 0) throw new BatchFileError('has no payouts under its header');
  return lines.map((cells, i) => {
    const row = { line: i + 2 } as BatchFileRow;
    for (const column of BATCH_FILE_COLUMNS) row[column] = (cells[header.indexOf(column)] ?? '').trim();
    return row;
  });
}

/** What is wrong with the row on its own (an empty column, its reference, its amount), or undefined; the enquiry and duplicates are checked by the caller. */
export function batchRowProblem(row: BatchFileRow): string | undefined {
  const empty = BATCH_FILE_REQUIRED_COLUMNS.filter((column) => row[column] === '');
  if (empty.length > 0) return `${empty.join(', ')} empty`;
  if (!REFERENCE.test(row.reference)) return REFERENCE_RULE;
  if (!AMOUNT_IN_MAJOR_UNITS.test(row.amount) || Number(row.amount) <= 0) return 'the amount must be naira above 0 with at most 2 decimal places, such as 5000.50';
  return undefined;
}

/** The problem of each row whose reference an earlier row has, by index. */
export function duplicateReferences(rows: readonly BatchFileRow[]): Map<number, string> {
  const seen = new Set<string>();
  const duplicates = new Map<number, string>();
  rows.forEach((row, index) => {
    if (row.reference !== '' && seen.has(row.reference)) duplicates.set(index, 'the reference appears on an earlier row');
    seen.add(row.reference);
  });
  return duplicates;
}
