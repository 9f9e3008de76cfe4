import { useInfiniteQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/api-context';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ExportButton } from '../../components/export-button';
import { LoadOlderButton } from '../../components/load-older-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { PAYOUT_STATUSES, StatusBadge } from './payout-status';

type PayoutStatus = DashboardComponents['schemas']['PayoutStatus'];
interface Filters {
  status: PayoutStatus | '';
  from: string;
  to: string;
  q: string;
}
export const PAYOUTS_KEY = ['payouts'] as const;
const NO_FILTERS: Filters = { status: '', from: '', to: '', q: '' };
const DAY_MS = 86_400_000;

/** The filters as the API takes them: dates are whole UTC days, `to` included. */
function queryOf(filters: Filters) {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00Z` } : {}),
    ...(filters.to ? { to: new Date(Date.parse(`${filters.to}T00:00:00Z`) + DAY_MS).toISOString() } : {}),
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
  };
}

/** The merchant's payouts, newest first, filtered by status, creation day and reference, a page at a time. */
export function PayoutsPage() {
  const { client, call } = useApi();
  const session = useSession();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const ids = { status: useId(), from: useId(), to: useId(), q: useId(), hint: useId() };
  const payouts = useInfiniteQuery({
    queryKey: [...PAYOUTS_KEY, filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/payouts', { params: { query: { ...queryOf(filters), ...(pageParam ? { after: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = payouts.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Page
      title="Payouts"
      actions={
        can(session.member.role, 'makePayouts') ? (
          <Link className="button" to="/payouts/new">
            New payout
          </Link>
        ) : null
      }
    >
      <form
        className="card inline-form"
        aria-label="Filter payouts"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        <div className="field">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} value={draft.status} onChange={(event) => setDraft({ ...draft, status: event.target.value as Filters['status'] })}>
            <option value="">Any</option>
            {PAYOUT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replaceAll('_', ' ').toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From (UTC day)</label>
          <input id={ids.from} type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To (UTC day)</label>
          <input id={ids.to} type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.q}>Reference</label>
          <input id={ids.q} aria-describedby={ids.hint} maxLength={64} pattern="[A-Za-z0-9._\-]{1,64}" value={draft.q} onChange={(event) => setDraft({ ...draft, q: event.target.value })} />
          <p id={ids.hint} className="hint">
            The start of a reference.
          </p>
        </div>
        <button type="submit" className="button">
          Apply filters
        </button>
      </form>
      <QueryStatus query={payouts} />
      <DataTable
        className="card"
        label="Payouts, newest first"
        rows={rows}
        empty={payouts.isSuccess ? <p>No payout matches.</p> : null}
        head={
          <>
            <th scope="col">Reference</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">To</th>
            <th scope="col">Created</th>
          </>
        }
        row={(payout) => (
          <tr key={payout.reference}>
            <th scope="row">
              <Link to={`/payouts/${encodeURIComponent(payout.reference)}`}>
                <code>{payout.reference}</code>
              </Link>
            </th>
            <td>
              <StatusBadge status={payout.status} />
            </td>
            <td>
              <Money amount={payout.amount} currency={payout.currency} />
            </td>
            <td>
              {payout.accountName} <span className="hint">{payout.bankCode}/{payout.accountNumber}</span>
            </td>
            <td>
              <DateTime value={payout.createdAt} />
            </td>
          </tr>
        )}
      />
      <LoadOlderButton query={payouts}>Load older payouts</LoadOlderButton>
      <ExportButton
        report="payouts"
        filters={{ ...queryOf(filters), q: undefined }}
        note={filters.q.trim() ? 'The export holds every payout of the status and dates chosen: the reference is not a filter of the report.' : undefined}
      />
    </Page>
  );
}
