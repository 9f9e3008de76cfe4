import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { koboOfNaira } from '../../money/parse-naira';
import { PAYOUTS_KEY } from './payouts-page';

type AccountEnquiry = DashboardComponents['schemas']['AccountEnquiry'];

/**
 * A payout in two steps, as the merchant API makes one: the account is
 * enquired first and its holder's name shown, then the amount is confirmed
 * against that name. Nothing is paid until the confirmation.
 */
export function NewPayoutPage() {
  const [enquiry, setEnquiry] = useState<AccountEnquiry | null>(null);
  return (
    <Page title="New payout">
      <p>
        <Link to="/payouts">All payouts</Link>
      </p>
      <EnquiryStep enquiry={enquiry} onEnquired={setEnquiry} />
      {enquiry ? <PayoutStep key={enquiry.enquiryId} enquiry={enquiry} /> : null}
    </Page>
  );
}

function EnquiryStep({ enquiry, onEnquired }: { enquiry: AccountEnquiry | null; onEnquired: (enquiry: AccountEnquiry | null) => void }) {
  const { client, call } = useApi();
  const banks = useQuery({ queryKey: ['banks'], queryFn: () => call(() => client.GET('/banks')), staleTime: Infinity });
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const ids = { bank: useId(), account: useId(), hint: useId() };
  const enquire = useMutation({
    mutationFn: () => call(() => client.POST('/account-enquiries', { body: { bankCode, accountNumber } })),
    onSuccess: onEnquired,
  });

  return (
    <CardSection id="payout-account" title="1. The account">
      <QueryStatus query={banks} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onEnquired(null);
          enquire.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={ids.bank}>Bank</label>
          <select id={ids.bank} required value={bankCode} onChange={(event) => setBankCode(event.target.value)}>
            <option value="">Choose a bank</option>
            {(banks.data ?? []).map((bank) => (
              <option key={bank.code} value={bank.code}>
                {bank.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.account}>Account number</label>
          <input id={ids.account} required inputMode="numeric" pattern="[0-9]{10}" maxLength={10} aria-describedby={ids.hint} value={accountNumber} onChange={(event) => setAccountNumber(event.target.value.trim())} />
          <p id={ids.hint} className="hint">
            The 10 digits of the NUBAN account number.
          </p>
        </div>
        <button type="submit" className="button" disabled={enquire.isPending}>
          Find the account holder
        </button>
      </form>
      <ErrorAlert error={enquire.error} />
      {enquiry ? (
        <p role="status">
          The bank says this account is held by <strong className="enquired-name">{enquiry.accountName}</strong>.
        </p>
      ) : null}
    </CardSection>
  );
}

function PayoutStep({ enquiry }: { enquiry: AccountEnquiry }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [reference, setReference] = useState('');
  const [amount, setAmount] = useState('');
  const [narration, setNarration] = useState('');
  const [confirming, setConfirming] = useState(false);
  const ids = { reference: useId(), amount: useId(), amountHint: useId(), narration: useId() };
  const kobo = koboOfNaira(amount);
  const create = useMutation({
    mutationFn: () => call(() => client.POST('/payouts', { body: { reference, amount: kobo ?? 0, currency: 'NGN', enquiryId: enquiry.enquiryId, narration } })),
    onSuccess: async (payout) => {
      await queryClient.invalidateQueries({ queryKey: PAYOUTS_KEY });
      await navigate(`/payouts/${encodeURIComponent(payout.reference)}`);
    },
  });

  return (
    <CardSection id="payout-details" title="2. The payout">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <div className="field">
          <label htmlFor={ids.reference}>Reference</label>
          <input id={ids.reference} required maxLength={64} pattern="[A-Za-z0-9._\-]{1,64}" value={reference} onChange={(event) => setReference(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.amount}>Amount (NGN)</label>
          <input id={ids.amount} required inputMode="decimal" aria-describedby={ids.amountHint} aria-invalid={amount !== '' && kobo === undefined} value={amount} onChange={(event) => setAmount(event.target.value)} />
          <p id={ids.amountHint} className="hint">
            Naira, with at most 2 decimal places, such as 5000.50.
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.narration}>Narration</label>
          <input id={ids.narration} required maxLength={100} value={narration} onChange={(event) => setNarration(event.target.value)} />
        </div>
        <button type="submit" className="button" disabled={kobo === undefined || kobo === 0}>
          Review payout
        </button>
      </form>
      {confirming && kobo !== undefined ? (
        <ConfirmDialog title="Pay out?" confirmLabel="Pay out" busy={create.isPending} error={create.error} onConfirm={() => create.mutate()} onClose={() => setConfirming(false)}>
          <p>
            Pay <Money amount={kobo} currency="NGN" /> to <strong>{enquiry.accountName}</strong> ({enquiry.bankCode}/{enquiry.accountNumber}), reference <code>{reference}</code>?
          </p>
          <p className="hint">If the merchant requires approval, the payout waits for another member to approve it.</p>
        </ConfirmDialog>
      ) : null}
    </CardSection>
  );
}
