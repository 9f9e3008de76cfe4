import { randomBytes } from 'node:crypto';
import { toDate, type SqlClient } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import { observeThrough, type StoreProbe } from '../stores/store-probe';

/** A successful enquiry as kept: what a payout to the account is bound to. */
export interface StoredEnquiry {
  enquiryId: string;
  merchantId: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  expiresAt: Date;
  /** Whether `expiresAt` has passed by the store's clock, as read. */
  expired: boolean;
}

/** Enquiry ids: `enq_` and 16 random bytes, as the contract's EnquiryId. */
const newEnquiryId = (): string => `enq_${randomBytes(16).toString('base64url')}`;

/**
 * Successful enquiries, kept in the payin database for every instance to
 * find, each bound to the merchant that made it and valid for
 * `validitySeconds` by the store's clock. Expired ones are deleted a day
 * after they expire (`deleteExpired`), since a payout keeps its own copy of
 * the account.
 */
export class EnquiryRecords {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    private readonly validitySeconds: number,
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  private readonly observed: ReturnType<typeof observeThrough>;

  async record(enquiry: { merchantId: string; bankCode: string; accountNumber: string; accountName: string }): Promise<{ enquiryId: string; expiresAt: Date }> {
    const enquiryId = newEnquiryId();
    const params: unknown[] = [enquiryId, enquiry.merchantId, enquiry.bankCode, enquiry.accountNumber, enquiry.accountName];
    const now = sqlNow(this.storeClock, params);
    const expires = sqlNowPlus(this.storeClock, params, this.validitySeconds * 1000);
    const { rows } = await this.observed('record', () =>
      this.client.query<{ expires_at: Date | string }>(
        `INSERT INTO account_enquiries (id, merchant_id, bank_code, account_number, account_name, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, ${now}, ${expires}) RETURNING expires_at`,
        params,
      ),
    );
    return { enquiryId, expiresAt: toDate((rows[0] as { expires_at: Date | string }).expires_at) };
  }

  /** The merchant's enquiry with this id; another merchant's is not found. */
  async find(merchantId: string, enquiryId: string): Promise<StoredEnquiry | undefined> {
    const params: unknown[] = [enquiryId, merchantId];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.observed('find', () =>
      this.client.query<{ id: string; merchant_id: string; bank_code: string; account_number: string; account_name: string; expires_at: Date | string; expired: boolean }>(
        `SELECT id, merchant_id, bank_code, account_number, account_name, expires_at, expires_at <= ${now} AS expired FROM account_enquiries WHERE id = $1 AND merchant_id = $2`,
        params,
      ),
    );
    const row = rows[0];
    return row && { enquiryId: row.id, merchantId: row.merchant_id, bankCode: row.bank_code, accountNumber: row.account_number, accountName: row.account_name, expiresAt: toDate(row.expires_at), expired: row.expired };
  }

  /** Deletes up to `limit` enquiries that expired more than a day ago; resolves how many. */
  async deleteExpired(limit: number): Promise<number> {
    const params: unknown[] = [limit];
    const now = sqlNow(this.storeClock, params);
    const { rows } = await this.observed('delete', () =>
      this.client.query(`DELETE FROM account_enquiries WHERE id IN (SELECT id FROM account_enquiries WHERE expires_at < ${now} - interval '1 day' LIMIT $1) RETURNING id`, params),
    );
    return rows.length;
  }

}
