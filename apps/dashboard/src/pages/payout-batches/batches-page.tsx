import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi } from '../../api/api-context';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { LoadOlderButton } from '../../components/load-older-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { StatusBadge } from '../payouts/payout-status';

export const BATCHES_KEY = ['payout-batches'] as const;

/** The merchant's payout batches, newest first, a page at a time. */
export function BatchesPage() {
  const { client, call } = useApi();
  const session = useSession();
  const batches = useInfiniteQuery({
    queryKey: BATCHES_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/payout-batches', { params: { query: pageParam ? { after: pageParam } : {} } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = batches.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Page
      title="Payout batches"
      actions={
        can(session.member.role, 'makePayouts') ? (
          <Link className="button" to="/payout-batches/new">
            Upload a batch
          </Link>
        ) : null
      }
    >
      <QueryStatus query={batches} />
      <DataTable
        className="card"
        label="Payout batches, newest first"
        rows={rows}
        empty={batches.isSuccess ? <p>No batch yet. Upload a CSV file of payouts to make one.</p> : null}
        head={
          <>
            <th scope="col">Reference</th>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Payouts</th>
            <th scope="col">Total</th>
            <th scope="col">Created</th>
          </>
        }
        row={(batch) => (
          <tr key={batch.reference}>
            <th scope="row">
              <Link to={`/payout-batches/${encodeURIComponent(batch.reference)}`}>
                <code>{batch.reference}</code>
              </Link>
            </th>
            <td>{batch.title}</td>
            <td>
              <StatusBadge status={batch.status} />
            </td>
            <td>{batch.count}</td>
            <td>
              <Money amount={batch.total} currency="NGN" />
            </td>
            <td>
              <DateTime value={batch.createdAt} />
            </td>
          </tr>
        )}
      />
      <LoadOlderButton query={batches}>Load older batches</LoadOlderButton>
    </Page>
  );
}
