import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AMOUNT_IN_MAJOR_UNITS, BatchFileError, batchRowProblem, duplicateReferences, matchName, readBatchFile, type BatchFileRow, type DashboardComponents } from '@paysign/contracts';
import { ACCOUNT_NUMBER_PATTERN, BANK_CODE_PATTERN } from '../accounts/account-enquiry.dto';
import { AccountEnquiryService } from '../accounts/account-enquiry.service';
import { findBank } from '../banks/bank-catalogue';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { ApiException, validationFailed } from '../errors/api.exception';
import { displayTextError } from '../http/display-text';
import { amountOf } from '../money/money';
import { PayoutsService } from '../payouts/payouts.service';
import { MemberEnquiryAllowance } from './member-enquiry-allowance';

type BatchRowResult = DashboardComponents['schemas']['BatchRowResult'];

/** A row of a batch file as checked: what the dashboard shows, and what its payout is made from when it has no problem. */
export interface CheckedRow {
  result: BatchRowResult;
  /** Set only on a row without a problem. */
  payout?: { reference: string; amountMinor: bigint; enquiryId: string; narration: string; expectedAccountName?: string };
}

/** Enquiries in flight at once, as the CLI's: the provider is asked about one file's rows a few at a time. */
const ENQUIRY_CONCURRENCY = 4;

/**
 * The dry run of a batch file, as `paysign batches create --dry-run` does
 * it: the file read by the CLI's parser (libs/contracts batch-file.ts),
 * each row checked, its reference looked up among the merchant's payouts,
 * and its account enquired, the name compared with `expectedAccountName`.
 * Nothing is created.
 */
@Injectable()
export class BatchFileCheck {
  constructor(
    private readonly enquiries: AccountEnquiryService,
    private readonly payouts: PayoutsService,
    private readonly allowance: MemberEnquiryAllowance,
    @Inject(AppConfigToken) private readonly config: AppConfig,
  ) {}

  /**
   * Checks each row of the member's file. Every row to enquire is counted
   * against the member's enquiry allowance first: past it, the whole check
   * is refused with 429 before any account is enquired.
   */
  async check(member: { merchantId: string; memberId: string }, csv: string, reply: FastifyReply): Promise<CheckedRow[]> {
    const rows = this.rowsOf(csv);
    const duplicates = duplicateReferences(rows);
    const checked = await this.inTurn(rows, (row, index) => this.checkBeforeEnquiry(member.merchantId, row, duplicates.get(index)));
    await this.allowance.take(member.memberId, reply, checked.filter((row) => row.payout !== undefined).length);
    return this.inTurn(checked, (row) => this.enquire(member.merchantId, row));
  }

  /** `work` on each item, ENQUIRY_CONCURRENCY at a time, the answers in the items' order. */
  private async inTurn<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
    const done: R[] = [];
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        done[index] = await work(items[index] as T, index);
      }
    };
    await Promise.all(Array.from({ length: Math.min(ENQUIRY_CONCURRENCY, items.length) }, worker));
    return done;
  }

  /** The file's rows; a file that is not a batch file, or holds too many rows, is refused as a whole. */
  private rowsOf(csv: string): BatchFileRow[] {
    let rows: BatchFileRow[];
    try {
      rows = readBatchFile(csv);
    } catch (error) {
      if (error instanceof BatchFileError) throw validationFailed([{ field: 'csv', code: 'format', message: `The file ${error.message}.` }]);
      throw error;
    }
    const max = this.config.dashboard.batchMaxRows;
    if (rows.length > max) throw validationFailed([{ field: 'csv', code: 'too_long', message: `The file holds ${rows.length} payouts; one upload holds at most ${max} (DASHBOARD_BATCH_MAX_ROWS). Split it into batches of ${max} or fewer.` }]);
    return rows;
  }

  /** The row's problem found without the bank; a row without one comes back with its payout to be made once its account is enquired (an empty enquiryId until then). */
  private async checkBeforeEnquiry(merchantId: string, row: BatchFileRow, duplicate: string | undefined): Promise<CheckedRow & { row: BatchFileRow }> {
    const amountMinor = koboOf(row.amount);
    const valid = batchRowProblem(row) ?? this.limitProblem(amountMinor) ?? accountProblem(row) ?? textProblem(row);
    // An amount past the maximum is shown as no amount: it could exceed what a JSON number holds exactly.
    const shown = amountMinor === undefined || amountMinor > this.config.payouts.maxAmountMinor ? null : Number(amountMinor);
    const result: BatchRowResult = { line: row.line, reference: row.reference, bankCode: row.bankCode, accountNumber: row.accountNumber, amount: shown, accountName: null, nameMatch: null, problem: duplicate ?? valid ?? null };
    if (result.problem !== null || amountMinor === undefined) return { row, result };
    if (await found(this.payouts.get({ merchantId, reference: row.reference }), 'PAYOUT_NOT_FOUND')) return { row, result: { ...result, problem: `a payout ${row.reference} exists already; give this row a new reference` } };
    return { row, result, payout: { reference: row.reference, amountMinor, enquiryId: '', narration: row.narration, ...(row.expectedAccountName ? { expectedAccountName: row.expectedAccountName } : {}) } };
  }

  /** An amount outside the payouts' own limits (PAYOUT_MIN_AMOUNT, PAYOUT_MAX_AMOUNT), found before the bank is asked. */
  private limitProblem(amountMinor: bigint | undefined): string | undefined {
    const { minAmountMinor, maxAmountMinor } = this.config.payouts;
    if (amountMinor === undefined) return undefined;
    if (amountMinor < minAmountMinor) return `the amount is below the minimum payout of NGN ${naira(minAmountMinor)}`;
    if (amountMinor > maxAmountMinor) return `the amount is above the maximum of NGN ${naira(maxAmountMinor)} per payout`;
    return undefined;
  }

  /** A row that passed checkBeforeEnquiry with its account enquired and the name compared; any other as it is. */
  private async enquire(merchantId: string, { row, result, payout }: CheckedRow & { row: BatchFileRow }): Promise<CheckedRow> {
    if (payout === undefined) return { result };
    try {
      const enquiry = await this.enquiries.enquire(merchantId, row.bankCode, row.accountNumber);
      const nameMatch: BatchRowResult['nameMatch'] = row.expectedAccountName ? matchName(row.expectedAccountName, enquiry.accountName) : 'not_checked';
      const checked = { ...result, accountName: enquiry.accountName, nameMatch };
      if (nameMatch === 'none') return { result: { ...checked, problem: `name mismatch: expected "${row.expectedAccountName}", the bank says "${enquiry.accountName}"` } };
      return { result: checked, payout: { ...payout, enquiryId: enquiry.enquiryId } };
    } catch (error) {
      if (!(error instanceof ApiException)) throw error;
      return { result: { ...result, problem: `${error.code}: ${error.message}` } };
    }
  }
}

/** What is wrong with the row's account as the enquiry's grammar and the bank list see it: such a row never reaches the bank. */
function accountProblem(row: BatchFileRow): string | undefined {
  if (!BANK_CODE_PATTERN.test(row.bankCode) || !findBank(row.bankCode)) return `bankCode ${row.bankCode.slice(0, 10)} is not a supported bank; use a code from GET /banks, such as 058`;
  if (!ACCOUNT_NUMBER_PATTERN.test(row.accountNumber)) return 'the accountNumber must be the 10 digits of a NUBAN account number, such as 0123456785';
  return undefined;
}

/** The first of the row's text cells a person will read that would not display as it reads (displayTextError), such as one holding NUL. */
function textProblem(row: BatchFileRow): string | undefined {
  const error = displayTextError('narration', row.narration) ?? displayTextError('expectedAccountName', row.expectedAccountName ?? '');
  return error && error.message.replace(/\.$/, '');
}

/** The row's amount in kobo, if it is one: naira above 0 with at most 2 decimal places, read digit by digit, exact however many digits it has. */
function koboOf(text: string): bigint | undefined {
  if (!AMOUNT_IN_MAJOR_UNITS.test(text)) return undefined;
  const [naira = '0', kobo = ''] = text.split('.');
  const minor = BigInt(naira) * 100n + BigInt(kobo.padEnd(2, '0'));
  return minor > 0n ? minor : undefined;
}

const naira = (minor: bigint) => amountOf({ minor, currency: 'NGN' }).toFixed(2);

/** Whether the lookup found its object: false for its not-found refusal, and any other failure thrown as it is. */
export function found(lookup: Promise<unknown>, notFoundCode: string): Promise<boolean> {
  return lookup.then(
    () => true,
    (error: unknown) => {
      if (error instanceof ApiException && error.code === notFoundCode) return false;
      throw error;
    },
  );
}
