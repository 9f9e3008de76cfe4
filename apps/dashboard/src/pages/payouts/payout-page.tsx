import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { PAYOUTS_KEY } from './payouts-page';
import { StatusBadge } from './payout-status';

/** One payout: where it goes, its approval, and each step of its life. */
export function PayoutPage() {
  const { reference = '' } = useParams();
  const { client, call } = useApi();
  const detail = useQuery({ queryKey: [...PAYOUTS_KEY, 'one', reference], queryFn: () => call(() => client.GET('/payouts/{reference}', { params: { path: { reference } } })) });
  const payout = detail.data?.payout;

  return (
    <Page title={`Payout ${reference}`}>
      <p>
        <Link to="/payouts">All payouts</Link>
      </p>
      <QueryStatus query={detail} />
      {payout && detail.data ? (
        <>
          <CardSection id="payout-summary" title="Summary">
            <dl className="details">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={payout.status} />
              </dd>
              <dt>Amount</dt>
              <dd>
                <Money amount={payout.amount} currency={payout.currency} /> (fee <Money amount={payout.fee} currency={payout.currency} />)
              </dd>
              <dt>To</dt>
              <dd>
                {payout.accountName}, {payout.bankCode}/{payout.accountNumber}
              </dd>
              <dt>Narration</dt>
              <dd>{payout.narration}</dd>
              {payout.batchReference ? (
                <>
                  <dt>Batch</dt>
                  <dd>
                    <Link to={`/payout-batches/${encodeURIComponent(payout.batchReference)}`}>{payout.batchReference}</Link>
                  </dd>
                </>
              ) : null}
              <dt>Created by</dt>
              <dd>
                <code>{payout.createdBy ?? '—'}</code>
              </dd>
              {payout.failureReason || payout.cancellationReason ? (
                <>
                  <dt>Why it ended so</dt>
                  <dd>{payout.failureReason ?? payout.cancellationReason}</dd>
                </>
              ) : null}
            </dl>
          </CardSection>
          <CardSection id="payout-approval" title="Approval">
            {payout.approval ? (
              <dl className="details">
                <dt>Decision</dt>
                <dd>{payout.approval.status}</dd>
                <dt>By</dt>
                <dd>
                  <code>{payout.approval.decidedBy ?? '—'}</code>
                </dd>
                <dt>{payout.approval.status === 'pending' ? 'Expires' : 'When'}</dt>
                <dd>
                  <DateTime value={payout.approval.decidedAt ?? payout.approval.expiresAt} />
                </dd>
                {payout.approval.reason ? (
                  <>
                    <dt>Reason</dt>
                    <dd>{payout.approval.reason}</dd>
                  </>
                ) : null}
              </dl>
            ) : (
              <p>This payout needed no approval.</p>
            )}
          </CardSection>
          <CardSection id="payout-history" title="History">
            <DataTable
              label="What happened, oldest first"
              rows={detail.data.events}
              head={
                <>
                  <th scope="col">When</th>
                  <th scope="col">Step</th>
                  <th scope="col">By</th>
                  <th scope="col">Note</th>
                </>
              }
              row={(event) => (
                <tr key={`${event.type}-${event.at}`}>
                  <th scope="row">
                    <DateTime value={event.at} />
                  </th>
                  <td>{event.type}</td>
                  <td>{event.by ? <code>{event.by}</code> : '—'}</td>
                  <td>{event.note ?? '—'}</td>
                </tr>
              )}
            />
          </CardSection>
        </>
      ) : null}
    </Page>
  );
}
