import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { koboOfNaira } from '../../money/parse-naira';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { StatusBadge } from '../payouts/payout-status';
import { BATCHES_KEY } from './batches-page';

type PayoutBatchDetail = DashboardComponents['schemas']['PayoutBatchDetail'];

/** One batch: its totals, why it was rejected if it was, each of its payouts, and its submission. */
export function BatchPage() {
  const { reference = '' } = useParams();
  const { client, call } = useApi();
  const session = useSession();
  const detail = useQuery({ queryKey: [...BATCHES_KEY, 'one', reference], queryFn: () => call(() => client.GET('/payout-batches/{reference}', { params: { path: { reference } } })) });
  const data = detail.data;
  const rejection = data?.payouts.find((payout) => payout.approval?.status === 'rejected')?.approval;
  const needsApproval = data?.payouts.some((payout) => payout.status === 'PENDING_APPROVAL') ?? false;

  return (
    <Page title={`Payout batch ${reference}`}>
      <p>
        <Link to="/payout-batches">All payout batches</Link>
      </p>
      <QueryStatus query={detail} />
      {data ? (
        <>
          <CardSection id="batch-summary" title={data.batch.title}>
            <dl className="details">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={data.batch.status} />
              </dd>
              <dt>Payouts</dt>
              <dd>{data.batch.count}</dd>
              <dt>Total</dt>
              <dd>
                <Money amount={data.batch.total} currency="NGN" /> (fees <Money amount={data.batch.fees} currency="NGN" />)
              </dd>
              <dt>Created by</dt>
              <dd>
                <code>{data.batch.createdBy}</code>, <DateTime value={data.batch.createdAt} />
              </dd>
              {data.batch.expiresAt ? (
                <>
                  <dt>Submit before</dt>
                  <dd>
                    <DateTime value={data.batch.expiresAt} />
                  </dd>
                </>
              ) : null}
              {data.batch.submittedBy ? (
                <>
                  <dt>Submitted by</dt>
                  <dd>
                    <code>{data.batch.submittedBy}</code>, <DateTime value={data.batch.submittedAt} />
                  </dd>
                </>
              ) : null}
              {rejection ? (
                <>
                  <dt>Rejected by</dt>
                  <dd>
                    <code>{rejection.decidedBy}</code>: {rejection.reason}
                  </dd>
                </>
              ) : null}
            </dl>
          </CardSection>
          {data.batch.status === 'OPEN' && can(session.member.role, 'makePayouts') ? (
            needsApproval ? (
              <p className="card">Its payouts need approval: another owner, admin or approver approves it under Approvals, which submits it.</p>
            ) : (
              <SubmitBatch detail={data} />
            )
          ) : null}
          <DataTable
            className="card"
            label="Payouts of the batch, oldest first"
            rows={data.payouts}
            head={
              <>
                <th scope="col">Reference</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">To</th>
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
              </tr>
            )}
          />
        </>
      ) : null}
    </Page>
  );
}

/** Submits the batch with the count and total the member expects from their own records: a batch holding anything else is refused. */
function SubmitBatch({ detail }: { detail: PayoutBatchDetail }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [count, setCount] = useState('');
  const [total, setTotal] = useState('');
  const ids = { count: useId(), total: useId(), hint: useId() };
  const kobo = koboOfNaira(total);
  const submit = useMutation({
    mutationFn: () => call(() => client.POST('/payout-batches/{reference}/submit', { params: { path: { reference: detail.batch.reference } }, body: { expectedCount: Number(count), expectedTotal: kobo ?? 0 } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BATCHES_KEY }),
  });

  return (
    <CardSection id="batch-submit" title="Submit">
      <p id={ids.hint}>Type the number of payouts and their total from your own records, not from this page: the batch is submitted only if it holds exactly those.</p>
      <form
        className="inline-form"
        aria-describedby={ids.hint}
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={ids.count}>Number of payouts</label>
          <input id={ids.count} required inputMode="numeric" pattern="[1-9][0-9]*" value={count} onChange={(event) => setCount(event.target.value.trim())} />
        </div>
        <div className="field">
          <label htmlFor={ids.total}>Total (NGN)</label>
          <input id={ids.total} required inputMode="decimal" value={total} onChange={(event) => setTotal(event.target.value)} />
        </div>
        <button type="submit" className="button" disabled={submit.isPending || kobo === undefined}>
          Submit batch
        </button>
      </form>
      <ErrorAlert error={submit.error} />
    </CardSection>
  );
}
