import type { NewPayin, PayinRepository, StoredPayin } from './payin-repository.interface';
import type { SqlClient } from './sql-client';

interface PayinRow {
  merchant_id: string;
  reference: string;
  status: 'PENDING';
  amount_minor: string | number | bigint;
  currency: StoredPayin['currency'];
  customer_email: string;
  customer_name: string | null;
  gateway: string | null;
  narration: string | null;
  notify_url: string | null;
  redirect_url: string | null;
  request_fingerprint: string;
  created_at: Date | string;
}

const COLUMNS = 'merchant_id, reference, status, amount_minor::text AS amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url, request_fingerprint, created_at';

/** Payins in SQL: PGlite on disk by default, PostgreSQL with DATABASE_URL. */
export class SqlPayinRepository implements PayinRepository {
  constructor(private readonly client: SqlClient) {}

  async insertIfAbsent(payin: NewPayin): Promise<{ created: boolean; payin: StoredPayin }> {
    const inserted = await this.client.query<PayinRow>(
      `INSERT INTO payins (merchant_id, reference, status, amount_minor, currency, customer_email, customer_name, gateway, narration, notify_url, redirect_url, request_fingerprint)
       VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (merchant_id, reference) DO NOTHING
       RETURNING ${COLUMNS}`,
      [payin.merchantId, payin.reference, payin.amountMinor.toString(), payin.currency, payin.customerEmail, payin.customerName, payin.gateway, payin.narration, payin.notifyUrl, payin.redirectUrl, payin.requestFingerprint],
    );
    const row = inserted.rows[0];
    if (row) return { created: true, payin: fromRow(row) };
    const existing = await this.find(payin.merchantId, payin.reference);
    if (!existing) throw new Error(`payin ${payin.reference} conflicted but cannot be read back`);
    return { created: false, payin: existing };
  }

  async find(merchantId: string, reference: string): Promise<StoredPayin | undefined> {
    const { rows } = await this.client.query<PayinRow>(`SELECT ${COLUMNS} FROM payins WHERE merchant_id = $1 AND reference = $2`, [merchantId, reference]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

function fromRow(row: PayinRow): StoredPayin {
  return {
    merchantId: row.merchant_id,
    reference: row.reference,
    status: row.status,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    customerEmail: row.customer_email,
    customerName: row.customer_name,
    gateway: row.gateway,
    narration: row.narration,
    notifyUrl: row.notify_url,
    redirectUrl: row.redirect_url,
    requestFingerprint: row.request_fingerprint,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}
