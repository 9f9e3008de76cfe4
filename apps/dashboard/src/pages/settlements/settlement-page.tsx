import { Link, useParams } from 'react-router';
import { CardSection } from '../../components/card-section';
import { DateTime } from '../../components/date-time';
import { LoadOlderButton } from '../../components/load-older-button';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { EntriesTable } from '../balance/entries-table';
import { useSettlement, useSettlementEntries } from './settlement-queries';

/** One settlement, and the entries of `available` it covered, which sum to its amount. */
export function SettlementPage() {
  const { id = '' } = useParams();
  const settlement = useSettlement(id);
  const entries = useSettlementEntries(id);
  const s = settlement.data;
  return (
    <Page title={`Settlement ${id}`}>
      <p>
        <Link to="/settlements">All settlements</Link>
      </p>
      <QueryStatus query={settlement} />
      {s ? (
        <CardSection id="settlement" title="Details">
          <dl className="details">
            <dt>Status</dt>
            <dd><span className={`badge ${s.status.toLowerCase()}`}>{s.status}</span>{s.needsAttention ? ' (an operator is looking into it)' : ''}</dd>
            <dt>Amount</dt>
            <dd><Money amount={s.amount} currency={s.currency} /></dd>
            <dt>Account</dt>
            <dd>{s.account.accountName}, {s.account.accountNumber} (bank {s.account.bankCode})</dd>
            <dt>Narration</dt>
            <dd>{s.narration}</dd>
            <dt>Made by</dt>
            <dd>{s.trigger === 'schedule' ? 'the schedule' : 'a request'}</dd>
            <dt>Created</dt>
            <dd><DateTime value={s.createdAt} /></dd>
            <dt>Completed</dt>
            <dd><DateTime value={s.completedAt} /></dd>
            {s.failureReason ? (
              <>
                <dt>Failure</dt>
                <dd>{s.failureReason}</dd>
              </>
            ) : null}
            {s.reversedAt ? (
              <>
                <dt>Reversed</dt>
                <dd><DateTime value={s.reversedAt} /></dd>
              </>
            ) : null}
          </dl>
        </CardSection>
      ) : null}
      {s ? (
        <CardSection id="covered-entries" title="Entries it covered">
          <QueryStatus query={entries} />
          {entries.isSuccess ? <EntriesTable label={`Entries settlement ${id} covered, newest first`} entries={entries.data.pages.flatMap((page) => page.data)} /> : null}
          <LoadOlderButton query={entries}>Load older entries</LoadOlderButton>
        </CardSection>
      ) : null}
    </Page>
  );
}
