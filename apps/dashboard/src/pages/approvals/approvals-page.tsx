import { useQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { useSession } from '../../session/use-session';
import { ApproveDialog } from './approve-dialog';
import { RejectDialog } from './reject-dialog';

type PendingApproval = DashboardComponents['schemas']['PendingApproval'];
export const APPROVALS_KEY = ['approvals'] as const;

/** Payouts and batches waiting for approval, oldest first. */
export function ApprovalsPage() {
  const { client, call } = useApi();
  // What the member made is another member's to approve (four eyes); the service refuses it, so the page does not offer it.
  const mine = `dashboard:${useSession().member.email.toLowerCase()}`;
  const approvals = useQuery({ queryKey: APPROVALS_KEY, queryFn: () => call(() => client.GET('/approvals')) });
  const [approving, setApproving] = useState<PendingApproval | null>(null);
  const [rejecting, setRejecting] = useState<PendingApproval | null>(null);

  return (
    <Page title="Approvals">
      <QueryStatus query={approvals} />
      {approvals.data ? (
        <DataTable
          className="card"
          label="Waiting for approval, oldest first"
          rows={approvals.data.data}
          empty={<p>Nothing waits for approval.</p>}
          head={
            <>
              <th scope="col">Reference</th>
              <th scope="col">Kind</th>
              <th scope="col">Amount</th>
              <th scope="col">Destination</th>
              <th scope="col">Count</th>
              <th scope="col">Created</th>
              <th scope="col">Created by</th>
              <th scope="col">Action</th>
            </>
          }
          row={(approval) => (
            <tr key={`${approval.kind}-${approval.reference}`}>
              <th scope="row"><code>{approval.reference}</code></th>
              <td>{approval.kind}</td>
              <td><Money amount={approval.amount} currency={approval.currency} /></td>
              <td>{approval.destination}</td>
              <td>{approval.count}</td>
              <td><DateTime value={approval.createdAt} /></td>
              <td><code>{approval.createdBy}</code></td>
              <td>
                {approval.createdBy === mine ? (
                  <span className="hint">Yours: another member approves it. </span>
                ) : (
                  <button type="button" className="button small" onClick={() => setApproving(approval)}>
                    Approve<span className="visually-hidden"> {approval.kind} {approval.reference}</span>
                  </button>
                )}{' '}
                <button type="button" className="button small secondary" onClick={() => setRejecting(approval)}>
                  Reject<span className="visually-hidden"> {approval.kind} {approval.reference}</span>
                </button>
              </td>
            </tr>
          )}
        />
      ) : null}
      {approving ? <ApproveDialog approval={approving} onClose={() => setApproving(null)} /> : null}
      {rejecting ? <RejectDialog approval={rejecting} onClose={() => setRejecting(null)} /> : null}
    </Page>
  );
}
