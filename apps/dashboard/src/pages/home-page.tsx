import { useQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useApi } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import { Money } from '../components/money';
import { Page } from '../components/page';

type PeriodTotals = DashboardComponents['schemas']['PeriodTotals'];

/** Balances, and today's and the last 7 days' collections and payouts. */
export function HomePage() {
  const { client, call } = useApi();
  const overview = useQuery({ queryKey: ['overview'], queryFn: () => call(() => client.GET('/overview')) });

  return (
    <Page title="Home">
      <ErrorAlert error={overview.error} />
      {overview.isPending ? <p>Loading…</p> : null}
      {overview.data ? (
        <>
          <section aria-labelledby="balances" className="card">
            <h2 id="balances">Balances</h2>
            {overview.data.balances.length === 0 ? (
              <p>No balance yet.</p>
            ) : (
              <div className="table-scroll" role="region" aria-label="Balances by currency" tabIndex={0}>
                <table>
                  <caption className="visually-hidden">Balances by currency</caption>
                  <thead>
                    <tr>
                      <th scope="col">Currency</th>
                      <th scope="col">Available</th>
                      <th scope="col">Pending</th>
                      <th scope="col">Held</th>
                    </tr>
                  </thead>
                  <tbody>
                    {overview.data.balances.map((balance) => (
                      <tr key={balance.currency}>
                        <th scope="row">{balance.currency}</th>
                        <td><Money amount={balance.available} currency={balance.currency} /></td>
                        <td><Money amount={balance.pending} currency={balance.currency} /></td>
                        <td><Money amount={balance.held} currency={balance.currency} /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
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
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>None today or in the last 7 days.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label={`${title} today and in the last 7 days (UTC)`} tabIndex={0}>
          <table>
            <caption className="visually-hidden">{title} today and in the last 7 days (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Currency</th>
                <th scope="col">Amount</th>
                <th scope="col">Count</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.period}-${row.currency}`}>
                  <th scope="row">{row.period}</th>
                  <td>{row.currency}</td>
                  <td><Money amount={row.amount} currency={row.currency} /></td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
