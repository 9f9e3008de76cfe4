import { DataTable } from './data-table';
import { Money } from './money';

/** One currency's balances, in minor units. */
export interface CurrencyBalances {
  currency: string;
  available: number;
  pending: number;
  held: number;
}

/** The balances per currency: available, pending and held. */
export function BalancesTable({ balances }: { balances: readonly CurrencyBalances[] }) {
  return (
    <DataTable
      label="Balances by currency"
      rows={balances}
      empty={<p>No balance yet.</p>}
      head={
        <>
          <th scope="col">Currency</th>
          <th scope="col">Available</th>
          <th scope="col">Pending</th>
          <th scope="col">Held</th>
        </>
      }
      row={(balance) => (
        <tr key={balance.currency}>
          <th scope="row">{balance.currency}</th>
          <td><Money amount={balance.available} currency={balance.currency} /></td>
          <td><Money amount={balance.pending} currency={balance.currency} /></td>
          <td><Money amount={balance.held} currency={balance.currency} /></td>
        </tr>
      )}
    />
  );
}
