import { useInfiniteQuery } from '@tanstack/react-query';
import { API_BASE_URL } from '../api/dashboard-client';
import { useApi } from '../api/api-context';
import { DateTime } from '../components/date-time';
import { ErrorAlert } from '../components/error-alert';
import { Page } from '../components/page';

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
      <ErrorAlert error={log.error} />
      {log.isPending ? <p>Loading…</p> : null}
      {log.isSuccess && entries.length === 0 ? <p>Nothing is logged yet.</p> : null}
      {entries.length > 0 ? (
        <div className="table-scroll card" role="region" aria-label="Security log, newest first" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Security log, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Channel</th>
                <th scope="col">Action</th>
                <th scope="col">Subject</th>
                <th scope="col">Address</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <th scope="row"><DateTime value={entry.at} /></th>
                  <td>{entry.actor}</td>
                  <td>{entry.channel}</td>
                  <td>{entry.action}</td>
                  <td>{entry.subject ?? '—'}</td>
                  <td>{entry.address ?? '—'}</td>
                  <td className="excerpt"><code>{JSON.stringify(entry.detail)}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {log.hasNextPage ? (
        <button type="button" className="button secondary" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Load older entries
        </button>
      ) : null}
    </Page>
  );
}
