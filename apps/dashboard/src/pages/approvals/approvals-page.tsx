import { useQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { DateTime } from '../../components/date-time';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { ApproveDialog } from './approve-dialog';

type PendingApproval = DashboardComponents['schemas']['PendingApproval'];
export const APPROVALS_KEY = ['approvals'] as const;

/** Payouts and batches waiting for approval, oldest first. */
export function ApprovalsPage() {
  const { client, call } = useApi();
  const approvals = useQuery({ queryKey: APPROVALS_KEY, queryFn: () => call(() => client.GET('/approvals')) });
  const [approving, setApproving] = useState<PendingApproval | null>(null);

  return (
    <Page title="Approvals">
      <ErrorAlert error={approvals.error} />
      {approvals.isPending ? <p>Loading…</p> : null}
      {approvals.data && approvals.data.data.length === 0 ? <p>Nothing waits for approval.</p> : null}
      {approvals.data && approvals.data.data.length > 0 ? (
        <div className="table-scroll card" role="region" aria-label="Waiting for approval, oldest first" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Waiting for approval, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Destination</th>
                <th scope="col">Count</th>
                <th scope="col">Created</th>
                <th scope="col">Created by</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {approvals.data.data.map((approval) => (
                <tr key={`${approval.kind}-${approval.reference}`}>
                  <th scope="row"><code>{approval.reference}</code></th>
                  <td>{approval.kind}</td>
                  <td><Money amount={approval.amount} currency={approval.currency} /></td>
                  <td>{approval.destination}</td>
                  <td>{approval.count}</td>
                  <td><DateTime value={approval.createdAt} /></td>
                  <td><code>{approval.createdBy}</code></td>
                  <td>
                    <button type="button" className="button small" onClick={() => setApproving(approval)}>
                      Approve<span className="visually-hidden"> {approval.kind} {approval.reference}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {approving ? <ApproveDialog approval={approving} onClose={() => setApproving(null)} /> : null}
    </Page>
  );
}
