import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ErrorAlert } from '../../components/error-alert';
import { LoadOlderButton } from '../../components/load-older-button';
import { QueryStatus } from '../../components/query-status';

type Delivery = DashboardComponents['schemas']['Delivery'];
type Outcome = Delivery['outcome'];
const OUTCOMES: readonly Outcome[] = ['delivered', 'failing', 'failed', 'pending'];
// The contract's eventType pattern; a partial type is not sent until it matches.
const EVENT_TYPE = /^[a-z_]+\.[a-z_.]+$/;
export const DELIVERIES_KEY = ['deliveries'] as const;
/** How often the list is read again while a delivery is pending or failing. */
const REFRESH_WHILE_TRYING_MS = 2000;

/** The endpoint's events, newest first, each with every attempt, filtered by type and outcome. */
export function Deliveries({ endpointId, manage }: { endpointId: string; manage: boolean }) {
  const { client, call } = useApi();
  const typeId = useId();
  const outcomeId = useId();
  const [typed, setTyped] = useState('');
  const [outcome, setOutcome] = useState<Outcome | ''>('');
  const eventType = EVENT_TYPE.test(typed) ? typed : undefined;
  const deliveries = useInfiniteQuery({
    queryKey: [...DELIVERIES_KEY, endpointId, { eventType, outcome }],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(() =>
        client.GET('/webhook-endpoints/{id}/deliveries', {
          params: { path: { id: endpointId }, query: { eventType, outcome: outcome || undefined, before: pageParam } },
        }),
      ),
    getNextPageParam: (page) => (page.hasMore ? page.data.at(-1)?.cursor : undefined),
    // While a delivery is still being tried, the list reads itself again, so its outcome shows without a reload.
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.data.some((d) => d.outcome === 'pending' || d.outcome === 'failing')) ? REFRESH_WHILE_TRYING_MS : false),
  });
  const all = deliveries.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <CardSection id="deliveries" title="Deliveries">
      <form className="filters" role="search" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={typeId}>Event type</label>
          <input id={typeId} placeholder="payin.successful" value={typed} onChange={(event) => setTyped(event.target.value.trim())} />
        </div>
        <div className="field">
          <label htmlFor={outcomeId}>Outcome</label>
          <select id={outcomeId} value={outcome} onChange={(event) => setOutcome(event.target.value as Outcome | '')}>
            <option value="">Any</option>
            {OUTCOMES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </form>
      <QueryStatus query={deliveries} />
      {deliveries.isSuccess && all.length === 0 ? <p>No delivery matches.</p> : null}
      {all.map((delivery) => (
        <DeliveryItem key={delivery.eventId} endpointId={endpointId} delivery={delivery} manage={manage} />
      ))}
      <LoadOlderButton query={deliveries}>Load older deliveries</LoadOlderButton>
    </CardSection>
  );
}

function DeliveryItem({ endpointId, delivery, manage }: { endpointId: string; delivery: Delivery; manage: boolean }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const headingId = useId();
  const resend = useMutation({
    mutationFn: () =>
      call(() => client.POST('/webhook-endpoints/{id}/deliveries/{eventId}/resend', { params: { path: { id: endpointId, eventId: delivery.eventId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...DELIVERIES_KEY, endpointId] }),
  });
  return (
    <article className="delivery" aria-labelledby={headingId}>
      <div className="delivery-head">
        <h3 id={headingId}>
          {delivery.eventType} <code>{delivery.eventId}</code>
        </h3>
        <span className={`badge ${delivery.outcome}`}>{delivery.outcome}</span>
        <DateTime value={delivery.createdAt} />
        {manage ? (
          <button type="button" className="button secondary small" onClick={() => resend.mutate()} disabled={resend.isPending}>
            Resend<span className="visually-hidden"> {delivery.eventId}</span>
          </button>
        ) : null}
      </div>
      <ErrorAlert error={resend.error} />
      {resend.isSuccess ? <p role="status">Queued again.</p> : null}
      <DataTable
        label={`Attempts to deliver ${delivery.eventId}`}
        rows={delivery.attempts}
        empty={<p>No attempt yet.</p>}
        head={
          <>
            <th scope="col">Attempt</th>
            <th scope="col">Time</th>
            <th scope="col">Status code</th>
            <th scope="col">Duration</th>
            <th scope="col">Response</th>
          </>
        }
        row={(attempt) => (
          <tr key={attempt.attempt}>
            <th scope="row">{attempt.attempt}</th>
            <td><DateTime value={attempt.at} /></td>
            <td>{attempt.statusCode ?? 'none'}</td>
            <td>{attempt.durationMs} ms</td>
            <td className="excerpt">
              {attempt.error ? <span>{attempt.error} </span> : null}
              {attempt.responseExcerpt ? <code>{attempt.responseExcerpt}</code> : null}
            </td>
          </tr>
        )}
      />
    </article>
  );
}
