import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { CardSection } from '../../components/card-section';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ExportButton } from '../../components/export-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { channelName, StatusBadge } from './payin-badges';
import { REFUND_IN_FLIGHT, usePayin } from './payins-queries';
import { RefundDialog } from './refund-dialog';

type Detail = DashboardComponents['schemas']['PayinDetail'];

/** One payin: what it is, each try at paying it, its events and their deliveries, its customer, and its refunds, with a refund made here. */
export function PayinPage() {
  const { reference = '' } = useParams();
  const payin = usePayin(reference);
  return (
    <Page title={`Payin ${reference}`}>
      <p>
        <Link to="/payins">All payins</Link>
      </p>
      <QueryStatus query={payin} />
      {payin.data ? (
        <>
          <Summary detail={payin.data} />
          <Refunds detail={payin.data} />
          <Customer detail={payin.data} />
          <Attempts detail={payin.data} />
          <Events detail={payin.data} />
        </>
      ) : null}
    </Page>
  );
}

function Summary({ detail }: { detail: Detail }) {
  const { payin } = detail;
  return (
    <CardSection id="payin-summary" title="Summary">
      <dl className="details">
        <dt>Status</dt>
        <dd><StatusBadge status={payin.status} />{payin.failureReason ? ` (${payin.failureReason})` : ''}</dd>
        <dt>Amount</dt>
        <dd><Money amount={payin.amount} currency={payin.currency} /></dd>
        <dt>Fee</dt>
        <dd>{payin.fee === null ? '—' : <Money amount={payin.fee} currency={payin.currency} />}</dd>
        <dt>Refunded</dt>
        <dd><Money amount={payin.amountRefunded} currency={payin.currency} />{detail.amountRefunding > 0 ? <> (<Money amount={detail.amountRefunding} currency={payin.currency} /> in flight)</> : null}</dd>
        <dt>Channel</dt>
        <dd>{channelName(payin.channel)}</dd>
        <dt>Narration</dt>
        <dd>{detail.narration ?? '—'}</dd>
        <dt>Provider</dt>
        <dd>{detail.provider ?? '—'}{detail.providerReference ? <> (<code>{detail.providerReference}</code>)</> : null}</dd>
        <dt>Created</dt>
        <dd><DateTime value={payin.createdAt} /></dd>
        <dt>Expires</dt>
        <dd><DateTime value={detail.expiresAt} /></dd>
        <dt>Paid</dt>
        <dd><DateTime value={payin.paidAt} /></dd>
        <dt>Failed</dt>
        <dd><DateTime value={payin.failedAt} /></dd>
      </dl>
      {detail.needsAttention ? <p role="status" className="alert">The provider reported something an operator must settle; refunds wait until then.</p> : null}
    </CardSection>
  );
}

/** How many refunds a payin's page holds (PayinDetail.refunds in the contract). */
const REFUNDS_SHOWN = 100;

function Refunds({ detail }: { detail: Detail }) {
  const session = useSession();
  const [refunding, setRefunding] = useState(false);
  const [made, setMade] = useState('');
  const { payin } = detail;
  const left = payin.amount - payin.amountRefunded - detail.amountRefunding;
  const refundable = can(session.member.role, 'refund') && payin.status === 'SUCCESSFUL' && !detail.needsAttention && left > 0;
  return (
    <CardSection id="payin-refunds" title="Refunds">
      <DataTable
        label="Refunds of this payin, newest first"
        rows={detail.refunds}
        empty={<p>No refund yet.</p>}
        head={
          <>
            <th scope="col">Reference</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
            <th scope="col">Created</th>
            <th scope="col">Completed</th>
          </>
        }
        row={(refund) => (
          <tr key={refund.reference}>
            <th scope="row"><code>{refund.reference}</code></th>
            <td>
              <StatusBadge status={refund.status} />
              {REFUND_IN_FLIGHT.has(refund.status) ? <span className="hint"> (updates by itself)</span> : null}
              {refund.failureReason ? ` ${refund.failureReason}` : ''}
            </td>
            <td><Money amount={refund.amount} currency={refund.currency} /></td>
            <td>{refund.reason ?? '—'}</td>
            <td>{refund.createdBy ?? '—'}</td>
            <td><DateTime value={refund.createdAt} /></td>
            <td><DateTime value={refund.completedAt} /></td>
          </tr>
        )}
      />
      {detail.refunds.length >= REFUNDS_SHOWN ? <ExportButton report="refunds" filters={{ payinReference: payin.reference }} note={`The ${REFUNDS_SHOWN} newest refunds are shown; the export holds them all.`} /> : null}
      {refundable ? (
        <div className="actions">
          <button type="button" className="button" onClick={() => setRefunding(true)}>Refund</button>
        </div>
      ) : null}
      <p role="status">{made}</p>
      {refunding ? (
        <RefundDialog
          payin={payin}
          left={left}
          onClose={() => setRefunding(false)}
          onDone={(refund) => {
            setRefunding(false);
            setMade(`Refund ${refund.reference} made: ${refund.status}.`);
          }}
        />
      ) : null}
    </CardSection>
  );
}

function Customer({ detail }: { detail: Detail }) {
  const { customer } = detail;
  return (
    <CardSection id="payin-customer" title="Customer">
      <dl className="details">
        <dt>Email</dt>
        <dd>{customer.email}</dd>
        <dt>Name</dt>
        <dd>{customer.name ?? '—'}</dd>
      </dl>
      <p>
        <Link to={`/payins?q=${encodeURIComponent(customer.email)}`}>Payins of {customer.email}</Link>
      </p>
    </CardSection>
  );
}

function Attempts({ detail }: { detail: Detail }) {
  return (
    <CardSection id="payin-attempts" title="Attempts">
      <DataTable
        label="Tries at paying, oldest first"
        rows={detail.attempts}
        empty={<p>No try at checkout recorded{detail.providerReference ? '; the provider took the payment on its own page' : ''}.</p>}
        head={
          <>
            <th scope="col">Attempt</th>
            <th scope="col">Channel</th>
            <th scope="col">Outcome</th>
            <th scope="col">Decline</th>
            <th scope="col">At</th>
          </>
        }
        row={(attempt) => (
          <tr key={attempt.attempt}>
            <th scope="row">{attempt.attempt}</th>
            <td>{channelName(attempt.channel)}</td>
            <td>{attempt.outcome}</td>
            <td>{attempt.declineReason ?? '—'}</td>
            <td><DateTime value={attempt.attemptedAt} /></td>
          </tr>
        )}
      />
    </CardSection>
  );
}

function Events({ detail }: { detail: Detail }) {
  return (
    <CardSection id="payin-events" title="Events and webhooks">
      {detail.events.length === 0 ? <p>No event was sent for this payin.</p> : null}
      {detail.events.map((event) => (
        <DataTable
          key={event.id}
          label={`${event.type} ${event.id} to ${event.notifyUrl}: ${event.status}`}
          rows={event.deliveries}
          empty={
            <p>
              <code>{event.type}</code> <span className={`badge ${event.status}`}>{event.status}</span> to {event.notifyUrl}, <DateTime value={event.createdAt} />: no attempt yet.
            </p>
          }
          head={
            <>
              <th scope="col">Attempt of {event.type}</th>
              <th scope="col">Started</th>
              <th scope="col">Status code</th>
              <th scope="col">Error</th>
              <th scope="col">Duration</th>
            </>
          }
          row={(delivery) => (
            <tr key={delivery.attempt}>
              <th scope="row">{delivery.attempt}</th>
              <td><DateTime value={delivery.startedAt} /></td>
              <td>{delivery.statusCode ?? '—'}</td>
              <td>{delivery.error ?? '—'}</td>
              <td>{delivery.durationMs} ms</td>
            </tr>
          )}
        />
      ))}
    </CardSection>
  );
}
