import { useInfiniteQuery } from '@tanstack/react-query';
import { API_BASE_URL } from '../api/dashboard-client';
import { useApi } from '../api/api-context';
import { DataTable } from '../components/data-table';
import { DateTime } from '../components/date-time';
import { LoadOlderButton } from '../components/load-older-button';
import { Page } from '../components/page';
import { QueryStatus } from '../components/query-status';

/** Who did what, when and from where, newest first, a page at a time; the whole log as CSV. */
export function SecurityLogPage() {
  const { client, call } = useApi();
  const log = useInfiniteQuery({
    queryKey: ['security-log'],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/security-log', { params: { query: { before: pageParam } } })),
    getNextPageParam: (page) => (page.hasMore ? page.data.at(-1)?.id : undefined),
  });
  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Page
      title="Security log"
      actions={
        <a className="button secondary" href={`${API_BASE_URL}/security-log.csv`} download="security-log.csv">
          Download CSV
        </a>
      }
    >
      <QueryStatus query={log} />
      <DataTable
        className="card"
        label="Security log, newest first"
        rows={entries}
        empty={log.isSuccess ? <p>Nothing is logged yet.</p> : null}
        head={
          <>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Channel</th>
            <th scope="col">Action</th>
            <th scope="col">Subject</th>
            <th scope="col">Address</th>
            <th scope="col">Detail</th>
          </>
        }
        row={(entry) => (
          <tr key={entry.id}>
            <th scope="row"><DateTime value={entry.at} /></th>
            <td>{entry.actor}</td>
            <td>{entry.channel}</td>
            <td>{entry.action}</td>
            <td>{entry.subject ?? '—'}</td>
            <td>{entry.address ?? '—'}</td>
            <td className="excerpt"><code>{JSON.stringify(entry.detail)}</code></td>
          </tr>
        )}
      />
      <LoadOlderButton query={log}>Load older entries</LoadOlderButton>
    </Page>
  );
}
