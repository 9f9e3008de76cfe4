import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { DashboardComponents } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../config/clock';
import { SqlClient } from '../db/sql-client';
import { Ledger } from '../ledger/ledger';
import { DashboardRoute } from './dashboard-route.decorator';
import { sessionOf } from './dashboard-session.guard';

type Overview = DashboardComponents['schemas']['Overview'];
type CountedMoney = DashboardComponents['schemas']['CountedMoney'];

const DAY_MS = 86_400_000;

/** The home page (tag Home): what the merchant holds, and what moved today and this week. */
@Controller('dashboard/api/overview')
export class OverviewController {
  constructor(
    private readonly ledger: Ledger,
    private readonly client: SqlClient,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  @DashboardRoute({ roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] })
  async get(@Req() request: FastifyRequest): Promise<Overview> {
    const { merchantId } = sessionOf(request);
    const today = Math.floor(this.clock() / DAY_MS) * DAY_MS;
    const since = { today: new Date(today), week: new Date(today - 6 * DAY_MS) };
    const [balances, collections, payouts] = await Promise.all([
      this.ledger.balancesOf(merchantId),
      // Successful payins by when they were paid; every index these read leads with the merchant.
      this.totals("SELECT currency, paid_at AS at, amount_minor FROM payins WHERE merchant_id = $1 AND status = 'SUCCESSFUL' AND paid_at >= $2", merchantId, since),
      // A settlement's transfer is the merchant's own money going home, not a payout it made.
      this.totals("SELECT currency, completed_at AS at, amount_minor FROM payouts WHERE merchant_id = $1 AND status = 'SUCCESSFUL' AND purpose = 'payout' AND completed_at >= $2", merchantId, since),
    ]);
    return {
      balances: balances.map((b) => ({ currency: b.currency, available: Number(b.availableMinor), pending: Number(b.pendingMinor), held: Number(b.heldMinor) })),
      collections,
      payouts,
    };
  }

  private async totals(select: string, merchantId: string, since: { today: Date; week: Date }): Promise<{ today: CountedMoney[]; week: CountedMoney[] }> {
    const { rows } = await this.client.query<{ currency: string; period: 'today' | 'week'; amount: string; count: string | number }>(
      `SELECT currency, CASE WHEN at >= $3 THEN 'today' ELSE 'week' END AS period, sum(amount_minor)::text AS amount, count(*) AS count
         FROM (${select}) moved GROUP BY currency, period ORDER BY currency`,
      [merchantId, since.week.toISOString(), since.today.toISOString()],
    );
    const period = (which: 'today' | 'week') => {
      const byCurrency = new Map<string, CountedMoney>();
      for (const row of rows) {
        if (which === 'today' && row.period !== 'today') continue;
        const sum = byCurrency.get(row.currency) ?? { currency: row.currency, amount: 0, count: 0 };
        byCurrency.set(row.currency, { currency: row.currency, amount: sum.amount + Number(row.amount), count: sum.count + Number(row.count) });
      }
      return [...byCurrency.values()];
    };
    return { today: period('today'), week: period('week') };
  }
}
