import { useMutation, useQuery } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { useApi } from '../../api/api-context';
import { ErrorAlert } from '../../components/error-alert';
import { useSetSettlementAccount } from './settlement-queries';

type AccountEnquiry = DashboardComponents['schemas']['AccountEnquiry'];
// The contract's AccountEnquiryRequest.accountNumber pattern: a NUBAN.
const NUBAN = /^[0-9]{10}$/;

/**
 * Names a new settlement account in two steps: an account enquiry finds its
 * holder's name, which the owner reads before confirming. Confirming needs a
 * fresh second factor (the step-up dialog asks for one), and the change is
 * pending for its delay.
 */
export function AccountChangeForm({ delayText }: { delayText: string }) {
  const { client, call } = useApi();
  const ids = { bank: useId(), number: useId(), numberHint: useId(), found: useId() };
  const banks = useQuery({ queryKey: ['banks'], queryFn: () => call(() => client.GET('/banks')), staleTime: Infinity });
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [found, setFound] = useState<AccountEnquiry | null>(null);
  const enquire = useMutation({
    mutationFn: () => call(() => client.POST('/account-enquiries', { body: { bankCode, accountNumber } })),
    onSuccess: setFound,
  });
  const confirm = useSetSettlementAccount();
  const ready = bankCode !== '' && NUBAN.test(accountNumber);
  const restart = () => {
    setFound(null);
    enquire.reset();
    confirm.reset();
  };

  return (
    <div className="account-change">
      <h3>Change the account</h3>
      <p className="hint">A change comes into force {delayText} after you confirm it, and can be cancelled until then.</p>
      <form
        className="inline-form"
        aria-label="Find the new account"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) enquire.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={ids.bank}>Bank</label>
          <select id={ids.bank} value={bankCode} onChange={(event) => { setBankCode(event.target.value); restart(); }}>
            <option value="">Choose a bank</option>
            {(banks.data ?? []).map((bank) => <option key={bank.code} value={bank.code}>{bank.name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.number}>Account number</label>
          <input id={ids.number} inputMode="numeric" autoComplete="off" maxLength={10} value={accountNumber} aria-describedby={ids.numberHint} onChange={(event) => { setAccountNumber(event.target.value.trim()); restart(); }} />
          <span id={ids.numberHint} className="hint">The 10 digits of your own account.</span>
        </div>
        <div className="field">
          <button type="submit" className="button secondary" disabled={!ready || enquire.isPending}>Find account</button>
        </div>
      </form>
      <ErrorAlert error={banks.error ?? enquire.error} />
      {found ? (
        <div role="status" aria-labelledby={ids.found}>
          <p id={ids.found}>
            Account holder: <strong>{found.accountName}</strong> ({found.accountNumber}, bank {found.bankCode})
          </p>
          {confirm.isSuccess ? (
            <p>Change requested: it is pending until it comes into force, as shown above.</p>
          ) : (
            <button type="button" className="button" disabled={confirm.isPending} onClick={() => confirm.mutate(found.enquiryId)}>
              Settle to {found.accountName}
            </button>
          )}
        </div>
      ) : null}
      <ErrorAlert error={confirm.error} />
    </div>
  );
}
