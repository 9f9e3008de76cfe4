import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ExportButton } from '../../components/export-button';
import { LoadOlderButton } from '../../components/load-older-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { CardSection } from '../../components/card-section';
import { QueryStatus } from '../../components/query-status';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { AccountCard } from './account-card';
import { ScheduleCard } from './schedule-card';
import { useSettlements, useSettleNow } from './settlement-queries';

/** The schedule, the settlement account, and every settlement, newest first. */
export function SettlementsPage() {
  const { role } = useSession().member;
  return (
    <Page title="Settlements" actions={can(role, 'settleNow') ? <SettleNowButton /> : null}>
      <ScheduleCard manage={can(role, 'manageSettlementSchedule')} />
      <AccountCard manage={can(role, 'manageSettlementAccount')} />
      <SettlementList />
    </Page>
  );
}

function SettlementList() {
  const settlements = useSettlements();
  const all = settlements.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <CardSection id="settlement-list" title="Settlements">
      <QueryStatus query={settlements} />
      {settlements.isSuccess ? (
        <DataTable
          label="Settlements, newest first"
          rows={all}
          empty={<p>No settlement yet.</p>}
          head={
            <>
              <th scope="col">Settlement</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Account</th>
              <th scope="col">Made by</th>
            </>
          }
          row={(settlement) => (
            <tr key={settlement.id}>
              <th scope="row"><Link to={`/settlements/${settlement.id}`}>{settlement.id}</Link></th>
              <td><DateTime value={settlement.createdAt} /></td>
              <td><span className={`badge ${settlement.status.toLowerCase()}`}>{settlement.status}</span></td>
              <td><Money amount={settlement.amount} currency={settlement.currency} /></td>
              <td>{settlement.account.accountName}, {settlement.account.accountNumber}</td>
              <td>{settlement.trigger === 'schedule' ? 'the schedule' : 'a request'}</td>
            </tr>
          )}
        />
      ) : null}
      <LoadOlderButton query={settlements}>Load older settlements</LoadOlderButton>
      <ExportButton report="settlements" filters={{}} />
    </CardSection>
  );
}

/** Settles the whole available balance now, after a confirmation; one reference per confirmation, so a repeat is the same request. */
function SettleNowButton() {
  const [reference, setReference] = useState<string | null>(null);
  const settle = useSettleNow();
  return (
    <>
      <button type="button" className="button" onClick={() => { settle.reset(); setReference(`dashboard-${crypto.randomUUID()}`); }}>
        Settle now
      </button>
      {/* Closed once settled: the list below shows the new settlement. */}
      {reference && !settle.isSuccess ? (
        <ConfirmDialog
          title="Settle the available balance now?"
          confirmLabel="Settle now"
          busy={settle.isPending}
          error={settle.error}
          onClose={() => setReference(null)}
          onConfirm={() => settle.mutate(reference)}
        >
          <p>The whole available naira balance is paid to the settlement account in force.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
