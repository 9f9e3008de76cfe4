import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { Money } from '../../components/money';
import type { BalanceEntry } from './balance-queries';

/** `payin_credit` → `Payin credit`. */
export const entryTypeLabel = (type: string): string => `${type.charAt(0).toUpperCase()}${type.slice(1).replace(/_/g, ' ')}`;

/** Ledger entries, newest first, each linked to the payin, payout, refund's payin or settlement that moved it. */
export function EntriesTable({ label, entries }: { label: string; entries: readonly BalanceEntry[] }) {
  return (
    <DataTable
      label={label}
      rows={entries}
      empty={<p>No entry matches.</p>}
      head={
        <>
          <th scope="col">Entry</th>
          <th scope="col">Date</th>
          <th scope="col">Type</th>
          <th scope="col">Balance</th>
          <th scope="col">Amount</th>
          <th scope="col">From</th>
        </>
      }
      row={(entry) => (
        <tr key={entry.id}>
          <th scope="row">{entry.id}</th>
          <td><DateTime value={entry.createdAt} /></td>
          <td>{entryTypeLabel(entry.type)}</td>
          <td>{entry.balance}</td>
          <td><Money amount={entry.amount} currency={entry.currency} /></td>
          <td><EntrySource source={entry.source} /></td>
        </tr>
      )}
    />
  );
}

/** Where an entry came from, linked to its page: a refund links to its payin's page, which lists the payin's refunds. */
export function EntrySource({ source }: { source: BalanceEntry['source'] }) {
  switch (source.kind) {
    case 'payin':
      return <Link to={`/payins/${encodeURIComponent(source.reference)}`}>Payin {source.reference}</Link>;
    case 'payout':
      return <Link to={`/payouts/${encodeURIComponent(source.reference)}`}>Payout {source.reference}</Link>;
    case 'settlement':
      return <Link to={`/settlements/${encodeURIComponent(source.reference)}`}>Settlement {source.reference}</Link>;
    case 'refund':
      return source.payinReference ? (
        <Link to={`/payins/${encodeURIComponent(source.payinReference)}`}>
          Refund {source.reference} of payin {source.payinReference}
        </Link>
      ) : (
        <>Refund {source.reference}</>
      );
  }
}
