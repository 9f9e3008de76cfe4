import { Controller, Get, Query, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { SqlClient } from '../db/sql-client';
import type { BalanceEntry } from '../ledger/balance-entry';
import { Ledger } from '../ledger/ledger';
import { parseDashboardEntriesQuery } from './balance-entries-query';
import { MEMBER_ROLES } from './dashboard-roles';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';

type Balances = DashboardComponents['schemas']['Balances'];
type BalanceEntryPage = DashboardComponents['schemas']['BalanceEntryPage'];
type DashboardEntry = BalanceEntryPage['data'][number];

/** Every member reads the money, as every role of Stripe's team reads the balance: what a role may change is what differs. */
export const MONEY_READERS = MEMBER_ROLES;

/**
 * The balance (tag Balance): the ledger's balances and entries, read from
 * the same Ledger as the signed API's /payment/api/balance, in kobo.
 */
@Controller('dashboard/api/balance')
export class DashboardBalanceController {
  constructor(
    private readonly ledger: Ledger,
    private readonly client: SqlClient,
  ) {}

  @Get()
  @DashboardRoute({ roles: MONEY_READERS })
  async get(@Req() request: FastifyRequest): Promise<Balances> {
    const balances = await this.ledger.balancesOf(sessionOf(request).merchantId);
    return { data: balances.map((b) => ({ currency: b.currency as Balances['data'][number]['currency'], available: Number(b.availableMinor), pending: Number(b.pendingMinor), held: Number(b.heldMinor) })) };
  }

  @Get('entries')
  @DashboardRoute({ roles: MONEY_READERS })
  async entries(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<BalanceEntryPage> {
    const { merchantId } = sessionOf(request);
    const listing = parseDashboardEntriesQuery(merchantId, query);
    const rows = await this.ledger.entriesOf({ ...listing, limit: listing.limit + 1 });
    const page = rows.slice(0, listing.limit);
    return { data: await entriesWithSources(this.client, merchantId, page), nextCursor: rows.length > listing.limit ? (page.at(-1)?.id ?? null) : null };
  }
}

/**
 * The entries as the dashboard shows them, each naming the object that moved
 * it and the payin it belongs to, so that the app links a refund's entry to
 * its payin's page. One query for the page's refunds.
 */
export async function entriesWithSources(client: SqlClient, merchantId: string, entries: readonly BalanceEntry[]): Promise<DashboardEntry[]> {
  const refunds = [...new Set(entries.filter((e) => e.objectType === 'refund').map((e) => e.reference))];
  const payinOf = new Map<string, string>();
  if (refunds.length > 0) {
    const { rows } = await client.query<{ reference: string; payin_reference: string }>('SELECT reference, payin_reference FROM refunds WHERE merchant_id = $1 AND reference = ANY($2)', [merchantId, refunds]);
    for (const row of rows) payinOf.set(row.reference, row.payin_reference);
  }
  return entries.map((entry) => ({
    id: entry.id,
    type: entry.type,
    balance: entry.balance,
    amount: Number(entry.amountMinor),
    currency: entry.currency as DashboardEntry['currency'],
    source: {
      kind: entry.objectType,
      reference: entry.reference,
      payinReference: entry.objectType === 'payin' ? entry.reference : (payinOf.get(entry.reference) ?? null),
    },
    createdAt: entry.createdAt.toISOString(),
  }));
}
