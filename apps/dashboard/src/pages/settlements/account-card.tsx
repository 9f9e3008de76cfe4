import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { CardSection } from '../../components/card-section';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { QueryStatus } from '../../components/query-status';
import { AccountChangeForm } from './account-change-form';
import { useCancelSettlementAccountChange, useSettlementAccount } from './settlement-queries';

type BankAccount = DashboardComponents['schemas']['SettlementBankAccount'];

/** `86400` → `24 hours`; the delay as the page says it. */
export function durationText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
}

const accountText = (account: BankAccount) => `${account.accountName}, ${account.accountNumber} (bank ${account.bankCode})`;

/** The account settlements are paid to, the change waiting for its delay, and, for an owner, changing or cancelling it. */
export function AccountCard({ manage }: { manage: boolean }) {
  const state = useSettlementAccount();
  const [cancelling, setCancelling] = useState(false);
  const cancel = useCancelSettlementAccountChange();
  const data = state.data;

  return (
    <CardSection id="settlement-account" title="Settlement account">
      <QueryStatus query={state} />
      {data ? (
        <>
          <dl className="details">
            <dt>In force</dt>
            <dd>{data.current ? <>{accountText(data.current.account)}, since <DateTime value={data.current.inForceSince} /></> : 'None yet: nothing is settled until an account is in force.'}</dd>
            {data.pending ? (
              <>
                <dt>Pending change</dt>
                <dd>
                  <span className="badge pending">pending</span> {accountText(data.pending.account)}, comes into force at <DateTime value={data.pending.effectiveAt} />
                </dd>
              </>
            ) : null}
          </dl>
          {data.pending && manage ? (
            <button type="button" className="button danger" onClick={() => setCancelling(true)}>
              Cancel the change
            </button>
          ) : null}
          {manage ? <AccountChangeForm delayText={durationText(data.changeDelaySeconds)} /> : <p className="hint">Only an owner changes the settlement account.</p>}
          {cancelling && data.pending ? (
            <ConfirmDialog
              title="Cancel the pending change?"
              confirmLabel="Cancel the change"
              busy={cancel.isPending}
              error={cancel.error}
              onClose={() => setCancelling(false)}
              onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setCancelling(false) })}
            >
              <p>Settlements stay paid to {data.current ? accountText(data.current.account) : 'no account'}; {accountText(data.pending.account)} will not come into force.</p>
            </ConfirmDialog>
          ) : null}
        </>
      ) : null}
    </CardSection>
  );
}
