import type { SqlClient, SqlQueryable } from '../db/sql-client';
import { toDate } from '../db/sql-client';
import { sqlNow, sqlNowPlus, type StoreClock } from '../db/store-clock';
import { observeThrough, type StoreProbe } from '../stores/store-probe';
import type { BalanceEntry, EntriesQuery } from './balance-entry';

/** The balances a merchant has in each currency. */
export type MerchantBalanceKind = 'available' | 'pending' | 'held';
/** The platform's own accounts: money the provider holds for us, and what fees earned. */
export type PlatformAccountKind = 'provider_settlement' | 'fee_revenue';

export type LedgerAccount = { merchantId: string; currency: string; kind: MerchantBalanceKind } | { merchantId: null; currency: string; kind: PlatformAccountKind };

/** What moved the money; the contract's BalanceEntryType, plus what only the platform's accounts see. */
export type EntryType =
  | 'payin_credit'
  | 'payin_fee'
  | 'settlement'
  | 'payout_hold'
  | 'payout_release'
  | 'payout_debit'
  | 'payout_fee'
  | 'payout_reversal'
  | 'payout_fee_refund'
  | 'refund_hold'
  | 'refund_release'
  | 'refund_debit'
  | 'refund_fee_return'
  | 'correction';
export type JournalType = 'payin_credit' | 'settlement' | 'payout_hold' | 'payout_release' | 'payout_debit' | 'payout_reversal' | 'refund_hold' | 'refund_release' | 'refund_debit' | 'correction';
export type LedgerObjectType = 'payin' | 'payout' | 'refund' | 'settlement';

export interface JournalLine {
  account: LedgerAccount;
  type: EntryType;
  /** Signed: positive into the account, negative out of it. */
  amountMinor: bigint;
}

/** One balanced movement of money, for one object: its lines sum to zero. */
export interface Journal {
  type: JournalType;
  merchantId: string;
  currency: string;
  objectType: LedgerObjectType;
  objectId: string;
  lines: JournalLine[];
}

/** A payout as its journals need it: amounts in minor units. */
export interface PayoutMoney {
  merchantId: string;
  reference: string;
  currency: string;
  amountMinor: bigint;
  feeMinor: bigint;
  /** `settlement` for the transfer of a settlement: its journals are the payout's, under the settlement's id. `payout` when absent. */
  objectType?: 'payout' | 'settlement';
}

export type { BalanceEntry, EntriesQuery } from './balance-entry';

export interface Balance {
  currency: string;
  availableMinor: bigint;
  pendingMinor: bigint;
  heldMinor: bigint;
}

/** A journal whose lines do not sum to zero, or that moves nothing: a bug in the caller, never posted. */
export class UnbalancedJournalError extends Error {
  override readonly name = 'UnbalancedJournalError';
}

/** A debit that would take a merchant's balance below zero; the transaction it was in rolls back. */
export class InsufficientBalanceError extends Error {
  override readonly name = 'InsufficientBalanceError';
  constructor(readonly account: LedgerAccount, readonly shortMinor: bigint) {
    super(`${account.kind} balance of ${account.merchantId} in ${account.currency} is ${shortMinor} minor units short`);
  }
}

export const accountId = (account: LedgerAccount): string =>
  account.merchantId === null ? `platform:${account.currency}:${account.kind}` : `merchant:${account.merchantId}:${account.currency}:${account.kind}`;

export const merchantAccount = (merchantId: string, currency: string, kind: MerchantBalanceKind): LedgerAccount => ({ merchantId, currency, kind });
export const platformAccount = (currency: string, kind: PlatformAccountKind): LedgerAccount => ({ merchantId: null, currency, kind });

/**
 * The double-entry ledger, in the payin database. Every movement of money is
 * a journal posted on the transaction of the change it records (a payin made
 * successful, a settlement), so the change, its entries and its event commit
 * together or not at all. A merchant's balances are rows updated by the same
 * transaction, never below zero; the platform's accounts are the sum of
 * their entries. `ledger:check` proves the invariants from the rows.
 */
export class Ledger {
  constructor(
    private readonly client: SqlClient,
    private readonly storeClock: StoreClock,
    /** Watches the calls the ledger makes on its own; a posting is watched as part of its caller's transaction. */
    probe?: StoreProbe,
  ) {
    this.observed = observeThrough(probe);
  }

  private readonly observed: ReturnType<typeof observeThrough>;

  /**
   * Posts `journal` on `tx`, once: resolves false, posting nothing, when a
   * journal of this type was already posted for the object. A line that would
   * take a merchant's balance below zero throws InsufficientBalanceError,
   * and the caller's transaction must roll back.
   */
  async post(tx: SqlQueryable, journal: Journal, at: Date): Promise<boolean> {
    return (await this.postMany(tx, [journal], at))[0] as boolean;
  }

  /**
   * Posts each journal as `post` does, in a fixed number of statements
   * whatever their count: one insert of the journals, one change per account
   * with the sum of every posted journal's lines on it, one insert of the
   * entries. Resolves, in order, whether each was posted. A merchant's
   * balance is refused below zero on the sum, so a caller that needs each
   * journal checked on its own checks them before.
   */
  async postMany(tx: SqlQueryable, journals: readonly Journal[], at: Date): Promise<boolean[]> {
    const nonZero = journals.map((journal) => {
      const lines = journal.lines.filter((line) => line.amountMinor !== 0n);
      const sum = lines.reduce((total, line) => total + line.amountMinor, 0n);
      if (lines.length < 2 || sum !== 0n) throw new UnbalancedJournalError(`journal ${journal.type} of ${journal.objectType} ${journal.objectId} must move money and sum to zero; it sums to ${sum} over ${lines.length} line(s)`);
      return { journal, lines };
    });
    if (nonZero.length === 0) return [];
    const keyOf = (j: { merchant_id: string; object_type: string; object_id: string; type: string }) => JSON.stringify([j.merchant_id, j.object_type, j.object_id, j.type]);
    const journalParams: unknown[] = [at.toISOString()];
    const journalRows = nonZero.map(({ journal }) => {
      const values = [journal.type, journal.merchantId, journal.currency, journal.objectType, journal.objectId].map((value) => `$${journalParams.push(value)}`);
      return `(${values.join(', ')}, $1::timestamptz)`;
    });
    const created = await tx.query<{ id: string; merchant_id: string; object_type: string; object_id: string; type: string }>(
      `INSERT INTO ledger_journals (type, merchant_id, currency, object_type, object_id, created_at) VALUES ${journalRows.join(', ')}
       ON CONFLICT ON CONSTRAINT ledger_journal_once_per_object DO NOTHING RETURNING id::text AS id, merchant_id, object_type, object_id, type`,
      journalParams,
    );
    const idOf = new Map(created.rows.map((row) => [keyOf(row), row.id]));
    const posted = nonZero.map(({ journal, lines }) => {
      const key = keyOf({ merchant_id: journal.merchantId, object_type: journal.objectType, object_id: journal.objectId, type: journal.type });
      const id = idOf.get(key);
      // The same journal twice in one call is posted once, by the first.
      idOf.delete(key);
      return { lines, journal, id };
    });
    const toPost = posted.filter((entry) => entry.id !== undefined);
    if (toPost.length > 0) {
      // Each account changes once, in one order, so that two postings over the same accounts lock them alike and never deadlock.
      const changes = new Map<string, { account: LedgerAccount; amountMinor: bigint }>();
      for (const line of toPost.flatMap((entry) => entry.lines)) {
        const change = changes.get(accountId(line.account)) ?? { account: line.account, amountMinor: 0n };
        changes.set(accountId(line.account), { account: line.account, amountMinor: change.amountMinor + line.amountMinor });
      }
      for (const [id, change] of [...changes].sort(([a], [b]) => (a < b ? -1 : 1))) await this.apply(tx, id, change.account, change.amountMinor);
      const params: unknown[] = [at.toISOString()];
      const rows = toPost.flatMap(({ id, journal, lines }) =>
        lines.map((line) => {
          const values = [id, accountId(line.account), line.account.merchantId, line.account.kind, line.account.currency, line.type, line.amountMinor.toString(), journal.objectType, journal.objectId].map((value) => `$${params.push(value)}`);
          return `(${values.join(', ')}, $1::timestamptz)`;
        }),
      );
      await tx.query(`INSERT INTO ledger_entries (journal_id, account_id, merchant_id, kind, currency, type, amount_minor, object_type, object_id, created_at) VALUES ${rows.join(', ')}`, params);
    }
    return posted.map((entry) => entry.id !== undefined);
  }

  /**
   * Credits a successful payin on `tx`: its amount into the merchant's
   * `pending` and its fee out of it to fee revenue, against the money the
   * provider now holds for us. Settlement is due `settlementDelayMs` later
   * by the store's clock; with no delay it settles in the same transaction.
   */
  async creditPayin(tx: SqlQueryable, payin: { merchantId: string; reference: string; currency: string; amountMinor: bigint; feeMinor: bigint }, at: Date, settlementDelayMs: number): Promise<void> {
    const { merchantId, currency, amountMinor, feeMinor } = payin;
    const pending = merchantAccount(merchantId, currency, 'pending');
    const credited = await this.post(
      tx,
      {
        type: 'payin_credit',
        merchantId,
        currency,
        objectType: 'payin',
        objectId: payin.reference,
        lines: [
          { account: platformAccount(currency, 'provider_settlement'), type: 'payin_credit', amountMinor: -amountMinor },
          { account: pending, type: 'payin_credit', amountMinor },
          { account: pending, type: 'payin_fee', amountMinor: -feeMinor },
          { account: platformAccount(currency, 'fee_revenue'), type: 'payin_fee', amountMinor: feeMinor },
        ],
      },
      at,
    );
    const netMinor = amountMinor - feeMinor;
    if (!credited || netMinor === 0n) return;
    if (settlementDelayMs === 0) {
      await this.settle(tx, { merchantId, objectType: 'payin', objectId: payin.reference, currency, amountMinor: netMinor }, at);
      return;
    }
    const params: unknown[] = [merchantId, payin.reference, currency, netMinor.toString()];
    const due = sqlNowPlus(this.storeClock, params, settlementDelayMs);
    await tx.query(`INSERT INTO ledger_settlements_due (merchant_id, object_type, object_id, currency, amount_minor, due_at) VALUES ($1, 'payin', $2, $3, $4, ${due})`, params);
  }

  /**
   * Settles up to `limit` credits whose settlement is due by the store's
   * clock, in one transaction: each leaves ledger_settlements_due as its
   * journal is posted. Safe with N instances: rows are taken with SKIP
   * LOCKED, and a journal is posted once per payin. Resolves with how many it settled.
   */
  async settleDue(limit: number, at: Date): Promise<number> {
    return this.observed('settle', () => this.client.transaction(async (tx) => {
      const params: unknown[] = [limit];
      const now = sqlNow(this.storeClock, params);
      const { rows } = await tx.query<{ merchant_id: string; object_type: LedgerObjectType; object_id: string; currency: string; amount_minor: string }>(
        `DELETE FROM ledger_settlements_due WHERE (merchant_id, object_type, object_id) IN (
           SELECT merchant_id, object_type, object_id FROM ledger_settlements_due WHERE due_at <= ${now} ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING merchant_id, object_type, object_id, currency, amount_minor::text AS amount_minor`,
        params,
      );
      for (const row of rows) {
        await this.settle(tx, { merchantId: row.merchant_id, objectType: row.object_type, objectId: row.object_id, currency: row.currency, amountMinor: BigInt(row.amount_minor) }, at);
      }
      return rows.length;
    }));
  }

  /**
   * Locks the merchant's `available` balance in `currency` for the rest of
   * `tx`, and resolves it: what a product takes first to serialise the moves
   * that spend it (a payout's create, a batch's cancel), so that they queue
   * instead of racing, and always in this order before anything else.
   */
  async lockAvailable(tx: SqlQueryable, merchantId: string, currency: string): Promise<bigint> {
    const { rows } = await tx.query<{ balance_minor: string }>('SELECT balance_minor::text AS balance_minor FROM ledger_accounts WHERE id = $1 FOR UPDATE', [
      accountId({ merchantId, currency, kind: 'available' }),
    ]);
    return BigInt(rows[0]?.balance_minor ?? 0);
  }

  /**
   * Holds a payout's amount and fee: out of `available`, into `held`. Throws
   * InsufficientBalanceError when `available` is short; the caller's
   * transaction, which creates the payout, then rolls back whole.
   */
  async holdPayout(tx: SqlQueryable, payout: PayoutMoney, at: Date): Promise<void> {
    await this.holdPayouts(tx, [payout], at);
  }

  /** Holds each payout's amount and fee, as holdPayout does, in the statements of one posting. */
  async holdPayouts(tx: SqlQueryable, payouts: readonly PayoutMoney[], at: Date): Promise<void> {
    const journals = payouts.map((payout): Journal => {
      const total = payout.amountMinor + payout.feeMinor;
      return {
        type: 'payout_hold',
        merchantId: payout.merchantId,
        currency: payout.currency,
        objectType: payout.objectType ?? 'payout',
        objectId: payout.reference,
        lines: [
          { account: merchantAccount(payout.merchantId, payout.currency, 'available'), type: 'payout_hold', amountMinor: -total },
          { account: merchantAccount(payout.merchantId, payout.currency, 'held'), type: 'payout_hold', amountMinor: total },
        ],
      };
    });
    const posted = await this.postMany(tx, journals, at);
    const again = payouts.find((_, i) => !posted[i]);
    if (again) throw new Error(`journal payout_hold of payout ${again.reference} was already posted`);
  }

  /** Gives a failed or cancelled payout's hold back to `available`. */
  async releasePayout(tx: SqlQueryable, payout: PayoutMoney, at: Date): Promise<void> {
    const total = payout.amountMinor + payout.feeMinor;
    await this.postPayout(tx, payout, 'payout_release', [
      { account: merchantAccount(payout.merchantId, payout.currency, 'held'), type: 'payout_release', amountMinor: -total },
      { account: merchantAccount(payout.merchantId, payout.currency, 'available'), type: 'payout_release', amountMinor: total },
    ], at);
  }

  /** A successful payout leaves: its amount out of `held` to the provider, which paid it, and its fee to fee revenue. */
  async debitPayout(tx: SqlQueryable, payout: PayoutMoney, at: Date): Promise<void> {
    await this.postPayout(tx, payout, 'payout_debit', [
      { account: merchantAccount(payout.merchantId, payout.currency, 'held'), type: 'payout_debit', amountMinor: -payout.amountMinor },
      { account: platformAccount(payout.currency, 'provider_settlement'), type: 'payout_debit', amountMinor: payout.amountMinor },
      { account: merchantAccount(payout.merchantId, payout.currency, 'held'), type: 'payout_fee', amountMinor: -payout.feeMinor },
      { account: platformAccount(payout.currency, 'fee_revenue'), type: 'payout_fee', amountMinor: payout.feeMinor },
    ], at);
  }

  /** A reversed payout's money comes back to `available`, its fee with it: the transfer did not reach the beneficiary. */
  async reversePayout(tx: SqlQueryable, payout: PayoutMoney, at: Date): Promise<void> {
    await this.postPayout(tx, payout, 'payout_reversal', [
      { account: platformAccount(payout.currency, 'provider_settlement'), type: 'payout_reversal', amountMinor: -payout.amountMinor },
      { account: merchantAccount(payout.merchantId, payout.currency, 'available'), type: 'payout_reversal', amountMinor: payout.amountMinor },
      { account: platformAccount(payout.currency, 'fee_revenue'), type: 'payout_fee_refund', amountMinor: -payout.feeMinor },
      { account: merchantAccount(payout.merchantId, payout.currency, 'available'), type: 'payout_fee_refund', amountMinor: payout.feeMinor },
    ], at);
  }

  /** A payout's journal; posting one twice is a bug in the payout's state machine, never a retry, so it throws. */
  private async postPayout(tx: SqlQueryable, payout: PayoutMoney, type: JournalType, lines: JournalLine[], at: Date): Promise<void> {
    const posted = await this.post(tx, { type, merchantId: payout.merchantId, currency: payout.currency, objectType: payout.objectType ?? 'payout', objectId: payout.reference, lines }, at);
    if (!posted) throw new Error(`journal ${type} of payout ${payout.reference} was already posted`);
  }

  /** The merchant's balances in every currency it has an account in (NGN first, always), or in `currency` alone. */
  async balancesOf(merchantId: string, currency?: string): Promise<Balance[]> {
    const { rows } = await this.observed('balance', () =>
      this.client.query<{ currency: string; kind: MerchantBalanceKind; balance_minor: string }>(
        `SELECT currency, kind, balance_minor::text AS balance_minor FROM ledger_accounts WHERE merchant_id = $1${currency === undefined ? '' : ' AND currency = $2'}`,
        currency === undefined ? [merchantId] : [merchantId, currency],
      ),
    );
    const of = (c: string, kind: MerchantBalanceKind) => BigInt(rows.find((row) => row.currency === c && row.kind === kind)?.balance_minor ?? 0);
    return [...new Set(currency === undefined ? ['NGN', ...rows.map((row) => row.currency).sort()] : [currency])].map((c) => ({ currency: c, availableMinor: of(c, 'available'), pendingMinor: of(c, 'pending'), heldMinor: of(c, 'held') }));
  }

  async balanceOf(merchantId: string, currency: string): Promise<Balance> {
    return (await this.balancesOf(merchantId, currency))[0] as Balance;
  }

  /**
   * The merchant's entries in `currency`, newest first, after the entry
   * `afterId` when given; of one balance, above the entry `aboveId`, of one
   * type, and made in [`from`, `to`) when given.
   */
  async entriesOf(query: EntriesQuery): Promise<BalanceEntry[]> {
    const params: unknown[] = [query.merchantId, query.currency, query.limit];
    let after = query.afterId === undefined ? '' : `AND id < $${params.push(query.afterId.toString())}`;
    if (query.kind !== undefined) after += ` AND kind = $${params.push(query.kind)}`;
    if (query.aboveId !== undefined) after += ` AND id > $${params.push(query.aboveId.toString())}`;
    if (query.type !== undefined) after += ` AND type = $${params.push(query.type)}`;
    if (query.from !== undefined) after += ` AND created_at >= $${params.push(query.from.toISOString())}`;
    if (query.to !== undefined) after += ` AND created_at < $${params.push(query.to.toISOString())}`;
    // Ordered by the table's bigint id, named in full: a bare `id` would be the text column of the select list, where '99' sorts after '100'.
    const { rows } = await this.observed('entries', () =>
      this.client.query<{ id: string; type: EntryType; kind: MerchantBalanceKind; amount_minor: string; currency: string; object_type: LedgerObjectType; object_id: string; created_at: Date | string }>(
        `SELECT id::text AS id, type, kind, amount_minor::text AS amount_minor, currency, object_type, object_id, created_at FROM ledger_entries
         WHERE merchant_id = $1 AND currency = $2 ${after} ORDER BY ledger_entries.id DESC LIMIT $3`,
        params,
      ),
    );
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      balance: row.kind,
      amountMinor: BigInt(row.amount_minor),
      currency: row.currency,
      objectType: row.object_type,
      reference: row.object_id,
      createdAt: toDate(row.created_at),
    }));
  }


  private async settle(tx: SqlQueryable, credit: { merchantId: string; objectType: LedgerObjectType; objectId: string; currency: string; amountMinor: bigint }, at: Date): Promise<void> {
    const { merchantId, currency, amountMinor } = credit;
    await this.post(
      tx,
      {
        type: 'settlement',
        merchantId,
        currency,
        objectType: credit.objectType,
        objectId: credit.objectId,
        lines: [
          { account: merchantAccount(merchantId, currency, 'pending'), type: 'settlement', amountMinor: -amountMinor },
          { account: merchantAccount(merchantId, currency, 'available'), type: 'settlement', amountMinor },
        ],
      },
      at,
    );
  }

  /**
   * An account's share of a journal: its row created the first time, a
   * merchant's balance moved by `amountMinor` and refused below zero. The
   * platform's rows keep no balance.
   */
  private async apply(tx: SqlQueryable, id: string, account: LedgerAccount, amountMinor: bigint): Promise<void> {
    if (account.merchantId === null) {
      await tx.query('INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor) VALUES ($1, NULL, $2, $3, NULL) ON CONFLICT (id) DO NOTHING', [id, account.currency, account.kind]);
      return;
    }
    if (amountMinor >= 0n) {
      await tx.query(
        `INSERT INTO ledger_accounts (id, merchant_id, currency, kind, balance_minor) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET balance_minor = ledger_accounts.balance_minor + EXCLUDED.balance_minor`,
        [id, account.merchantId, account.currency, account.kind, amountMinor.toString()],
      );
      return;
    }
    // Guarded: the row's lock orders concurrent debits, and one that would go below zero changes nothing.
    const { rows } = await tx.query<{ id: string }>('UPDATE ledger_accounts SET balance_minor = balance_minor + $2 WHERE id = $1 AND balance_minor + $2 >= 0 RETURNING id', [id, amountMinor.toString()]);
    if (rows.length === 0) {
      const current = await tx.query<{ balance_minor: string }>('SELECT balance_minor::text AS balance_minor FROM ledger_accounts WHERE id = $1', [id]);
      throw new InsufficientBalanceError(account, -(BigInt(current.rows[0]?.balance_minor ?? 0) + amountMinor));
    }
  }
}
