import { useQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useApi } from '../api/api-context';
import { BalancesTable } from '../components/balances-table';
import { CardSection } from '../components/card-section';
import { DataTable } from '../components/data-table';
import { Money } from '../components/money';
import { Page } from '../components/page';
import { QueryStatus } from '../components/query-status';

type PeriodTotals = DashboardComponents['schemas']['PeriodTotals'];

/** Balances, and today's and the last 7 days' collections and payouts. */
export function HomePage() {
  const { client, call } = useApi();
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => call(() => client.GET('/overview')) });

  return (
    <Page title="Home">
      <QueryStatus query={overview} />
      {overview.data ? (
        <>
          <CardSection id="balances" title="Balances">
            <BalancesTable balances={overview.data.balances} />
          </CardSection>
          <PeriodSection id="collections" title="Collections" totals={overview.data.collections} />
          <PeriodSection id="payouts" title="Payouts" totals={overview.data.payouts} />
        </>
      ) : null}
    </Page>
  );
}

function PeriodSection({ id, title, totals }: { id: string; title: string; totals: PeriodTotals }) {
  const rows = [
    ...totals.today.map((money) => ({ period: 'Today', ...money })),
    ...totals.week.map((money) => ({ period: 'Last 7 days', ...money })),
  ];
  return (
    <CardSection id={id} title={title}>
      <DataTable
        label={`${title} today and in the last 7 days (UTC)`}
        rows={rows}
        empty={<p>None today or in the last 7 days.</p>}
        head={
          <>
            <th scope="col">Period</th>
            <th scope="col">Currency</th>
            <th scope="col">Amount</th>
            <th scope="col">Count</th>
          </>
        }
        row={(row) => (
          <tr key={`${row.period}-${row.currency}`}>
            <th scope="row">{row.period}</th>
            <td>{row.currency}</td>
            <td><Money amount={row.amount} currency={row.currency} /></td>
            <td>{row.count}</td>
          </tr>
        )}
      />
    </CardSection>
  );
}
