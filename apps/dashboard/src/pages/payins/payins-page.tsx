import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ExportButton } from '../../components/export-button';
import { LoadOlderButton } from '../../components/load-older-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { CHANNEL_NAMES, channelName, StatusBadge } from './payin-badges';
import { usePayins, type PayinFilters } from './payins-queries';

type Schemas = DashboardComponents['schemas'];
const STATUSES: readonly Schemas['PayinStatus'][] = ['SUCCESSFUL', 'PENDING', 'FAILED', 'ABANDONED', 'CANCELLED'];
const CHANNELS = Object.keys(CHANNEL_NAMES) as Schemas['PayinChannel'][];
const DAY_MS = 86_400_000;

/** The UTC midnight of a day written YYYY-MM-DD that exists in the calendar; undefined for anything else (an address may hold 2026-13-01). */
function midnightOf(day: string | null): number | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? undefined : ms;
}

/** The filters in the page's address, so that a filtered page can be linked to, reloaded and exported. */
function filtersOf(params: URLSearchParams): PayinFilters {
  const filters: PayinFilters = {};
  const q = params.get('q');
  if (q) filters.q = q;
  const status = params.get('status');
  if (status && (STATUSES as readonly string[]).includes(status)) filters.status = status as Schemas['PayinStatus'];
  const channel = params.get('channel');
  if (channel && (CHANNELS as readonly string[]).includes(channel)) filters.channel = channel as Schemas['PayinChannel'];
  // Days in UTC, as the home page's totals; the last day is included, so `to` is the midnight after it.
  const from = midnightOf(params.get('from'));
  if (from !== undefined) filters.from = new Date(from).toISOString();
  const to = midnightOf(params.get('to'));
  if (to !== undefined) filters.to = new Date(to + DAY_MS).toISOString();
  return filters;
}

/** The merchant's payins, newest first: one search box, filters, older pages on demand, and the export of what the filters find. */
export function PayinsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const payins = usePayins(filters);
  const session = useSession();
  const all = payins.data?.pages.flatMap((page) => page.data) ?? [];
  const set = (name: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });

  return (
    <Page title="Payins">
      <PayinSearch filters={params} onChange={set} />
      {can(session.member.role, 'exportReports') ? (
        <ExportButton
          report="payins"
          filters={{ status: filters.status, from: filters.from, to: filters.to }}
          note={filters.q || filters.channel ? 'The export holds every payin of the status and dates chosen: the search and the channel are not filters of the report.' : undefined}
        />
      ) : null}
      <QueryStatus query={payins} />
      {payins.isSuccess ? (
        <DataTable
          className="card"
          label="Payins, newest first"
          rows={all}
          empty={<p>No payin matches.</p>}
          head={
            <>
              <th scope="col">Reference</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Customer</th>
              <th scope="col">Channel</th>
              <th scope="col">Created</th>
            </>
          }
          row={(payin) => (
            <tr key={payin.reference}>
              <th scope="row">
                <Link to={`/payins/${encodeURIComponent(payin.reference)}`}>
                  <code>{payin.reference}</code>
                </Link>
              </th>
              <td><StatusBadge status={payin.status} /></td>
              <td><Money amount={payin.amount} currency={payin.currency} /></td>
              <td>{payin.customerEmail}</td>
              <td>{channelName(payin.channel)}</td>
              <td><DateTime value={payin.createdAt} /></td>
            </tr>
          )}
        />
      ) : null}
      <LoadOlderButton query={payins}>Load older payins</LoadOlderButton>
    </Page>
  );
}

/** The search box (sent when submitted, so that half an email is never searched) and the filters (applied at once). */
function PayinSearch({ filters, onChange }: { filters: URLSearchParams; onChange: (name: string, value: string) => void }) {
  const ids = { q: useId(), hint: useId(), status: useId(), channel: useId(), from: useId(), to: useId() };
  const [typed, setTyped] = useState(filters.get('q') ?? '');
  return (
    <form
      className="filters card"
      role="search"
      aria-label="Search payins"
      onSubmit={(event) => {
        event.preventDefault();
        onChange('q', typed.trim());
      }}
    >
      <div className="field">
        <label htmlFor={ids.q}>Search</label>
        <input id={ids.q} type="search" aria-describedby={ids.hint} value={typed} onChange={(event) => setTyped(event.target.value)} />
        <p id={ids.hint} className="hint">A reference, a customer's email, or an amount such as 1500.00</p>
      </div>
      <div className="field">
        <label htmlFor={ids.status}>Status</label>
        <select id={ids.status} value={filters.get('status') ?? ''} onChange={(event) => onChange('status', event.target.value)}>
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>{status}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.channel}>Channel</label>
        <select id={ids.channel} value={filters.get('channel') ?? ''} onChange={(event) => onChange('channel', event.target.value)}>
          <option value="">Any</option>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>{CHANNEL_NAMES[channel]}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.from}>From (UTC)</label>
        <input id={ids.from} type="date" value={filters.get('from') ?? ''} onChange={(event) => onChange('from', event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>To (UTC, included)</label>
        <input id={ids.to} type="date" value={filters.get('to') ?? ''} onChange={(event) => onChange('to', event.target.value)} />
      </div>
      <div className="field">
        <span aria-hidden="true">&nbsp;</span>
        <button type="submit" className="button">Search</button>
      </div>
    </form>
  );
}
