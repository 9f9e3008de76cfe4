import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SqlQueryable } from '../db/sql-client';
import { SqlClient } from '../db/sql-client';
import { ServiceLogger } from '../logging/logger';
import { majorUnitsText } from '../money/money';
import { SETTLEMENT_CURRENCIES } from '../money/settlement-currencies';

/** A merchant's money in a currency the platform does not settle: the operator settles it by hand. */
export interface UnsettledBalance {
  merchantId: string;
  currency: string;
  availableMinor: bigint;
  pendingMinor: bigint;
  heldMinor: bigint;
}

/** At most this many are named, one line each; the rest are counted. */
export const UNSETTLED_BALANCES_NAMED = 20;

/**
 * Every merchant balance in a currency the platform does not settle
 * (SETTLEMENT_CURRENCIES), that is not zero: the first `limit`, by merchant
 * and currency, and how many there are. A figure for the operator, never a
 * broken invariant: the money is the merchant's, and the operator pays it
 * out outside the platform.
 */
export async function unsettledBalances(client: SqlQueryable, limit = UNSETTLED_BALANCES_NAMED): Promise<{ named: UnsettledBalance[]; total: number }> {
  const { rows } = await client.query<{ merchant_id: string; currency: string; available: string; pending: string; held: string; total: string }>(
    `SELECT merchant_id, currency,
            coalesce(sum(balance_minor) FILTER (WHERE kind = 'available'), 0)::text AS available,
            coalesce(sum(balance_minor) FILTER (WHERE kind = 'pending'), 0)::text AS pending,
            coalesce(sum(balance_minor) FILTER (WHERE kind = 'held'), 0)::text AS held,
            count(*) OVER ()::text AS total
       FROM ledger_accounts
      WHERE merchant_id IS NOT NULL AND NOT (currency = ANY ($1::text[]))
      GROUP BY merchant_id, currency HAVING sum(abs(balance_minor)) <> 0
      ORDER BY merchant_id, currency LIMIT $2`,
    [SETTLEMENT_CURRENCIES, limit],
  );
  return {
    named: rows.map((row) => ({ merchantId: row.merchant_id, currency: row.currency, availableMinor: BigInt(row.available), pendingMinor: BigInt(row.pending), heldMinor: BigInt(row.held) })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** One line about one such balance, for the log and for `ledger:check`. */
export function describeUnsettled(balance: UnsettledBalance): string {
  const total = balance.availableMinor + balance.pendingMinor + balance.heldMinor;
  return `${balance.merchantId} holds ${balance.currency} ${majorUnitsText(total)} (available ${majorUnitsText(balance.availableMinor)}, pending ${majorUnitsText(balance.pendingMinor)}, held ${majorUnitsText(balance.heldMinor)})`;
}

/**
 * At boot, a warning per merchant balance in a currency the platform does
 * not settle (at most UNSETTLED_BALANCES_NAMED, then one line with the
 * count): money the operator must settle by hand, which no payout can send.
 */
@Injectable()
export class UnsettledBalancesWarning implements OnApplicationBootstrap {
  constructor(
    @Inject(SqlClient) private readonly client: SqlClient,
    @Inject(ServiceLogger) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { named, total } = await unsettledBalances(this.client).catch((error: unknown) => {
      this.logger.warn({ err: (error as Error).message }, 'balances in currencies the platform does not settle: not read at boot');
      return { named: [], total: 0 };
    });
    for (const balance of named) {
      const amountMinor = balance.availableMinor + balance.pendingMinor + balance.heldMinor;
      this.logger.warn(
        { merchantId: balance.merchantId, currency: balance.currency, amount: majorUnitsText(amountMinor), settles: SETTLEMENT_CURRENCIES },
        `balance in a currency the platform does not settle: ${describeUnsettled(balance)}; the operator settles it outside the platform (docs/payins.md, "Currencies")`,
      );
    }
    if (total > named.length) this.logger.warn({ named: named.length, total }, `balances in currencies the platform does not settle: ${total - named.length} more not named; npm run ledger:check lists them`);
  }
}
