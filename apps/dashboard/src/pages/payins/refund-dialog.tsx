import type { DashboardComponents } from '@paysign/contracts';
import { useId, useRef, useState } from 'react';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { formatMinorUnits } from '../../money/format-kobo';
import { koboOfNaira } from '../../money/parse-naira';
import { useCreateRefund } from './payins-queries';

type Schemas = DashboardComponents['schemas'];
type Reason = Schemas['RefundReason'];
const REASONS: readonly { reason: Reason; label: string }[] = [
  { reason: 'requested_by_customer', label: 'The customer asked' },
  { reason: 'duplicate', label: 'Paid twice' },
  { reason: 'fraudulent', label: 'Fraudulent' },
  { reason: 'other', label: 'Another reason' },
];

interface RefundDialogProps {
  payin: Schemas['PayinSummary'];
  /** What is left to refund, in kobo: the amount less what was refunded and what refunds in flight hold. */
  left: number;
  onDone: (refund: Schemas['DashboardRefund']) => void;
  onClose: () => void;
}

/**
 * Refunds the payin, in full or in part. The service judges it under the
 * signed API's rules and answers why when it refuses; a second factor given
 * in the last minutes is asked for first when there is none.
 */
export function RefundDialog({ payin, left, onDone, onClose }: RefundDialogProps) {
  const ids = { amount: useId(), amountHint: useId(), reason: useId() };
  const [part, setPart] = useState(false);
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState<Reason>('requested_by_customer');
  const [problem, setProblem] = useState('');
  const refund = useCreateRefund(payin.reference);
  // One reference per refund asked for: sending the same amount and reason again, after an answer that never came, is the same refund, not a second one.
  const attempt = useRef<{ body: string; reference: string } | undefined>(undefined);
  const referenceFor = (body: object): string => {
    const key = JSON.stringify(body);
    if (attempt.current?.body !== key) attempt.current = { body: key, reference: `rf_${crypto.randomUUID().replaceAll('-', '')}` };
    return attempt.current.reference;
  };
  const submit = () => {
    setProblem('');
    const amount = part ? koboOfNaira(typed) : undefined;
    if (part && (amount === undefined || amount < 1)) return setProblem('Enter the amount in naira, such as 500 or 1,500.50.');
    if (amount !== undefined && amount > left) return setProblem(`At most ${formatMinorUnits(left, payin.currency)} is left to refund.`);
    const body = { reason, ...(amount === undefined ? {} : { amount }) };
    refund.mutate({ ...body, reference: referenceFor(body) }, { onSuccess: onDone });
  };

  return (
    <Dialog title={`Refund ${payin.reference}`} onClose={onClose}>
      <p>
        Paid <Money amount={payin.amount} currency={payin.currency} />; left to refund <Money amount={left} currency={payin.currency} />. The refund is held from your balance at once and sent to the customer's bank by the payin's provider.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset>
          <legend>Amount</legend>
          <label className="checkbox">
            <input type="radio" name="refund-amount" checked={!part} onChange={() => setPart(false)} /> Everything left ({formatMinorUnits(left, payin.currency)})
          </label>
          <label className="checkbox">
            <input type="radio" name="refund-amount" checked={part} onChange={() => setPart(true)} /> Part of it
          </label>
          {part ? (
            <div className="field">
              <label htmlFor={ids.amount}>Amount in naira</label>
              <input id={ids.amount} inputMode="decimal" autoComplete="off" aria-describedby={ids.amountHint} value={typed} onChange={(event) => setTyped(event.target.value)} />
              <p id={ids.amountHint} className="hint">Such as 500 or 500.50</p>
            </div>
          ) : null}
        </fieldset>
        <div className="field">
          <label htmlFor={ids.reason}>Reason</label>
          <select id={ids.reason} value={reason} onChange={(event) => setReason(event.target.value as Reason)}>
            {REASONS.map(({ reason: value, label }) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </div>
        {problem ? <p role="alert" className="alert">{problem}</p> : null}
        <ErrorAlert error={refund.error} />
        <div className="actions">
          <button type="submit" className="button" disabled={refund.isPending}>Refund</button>
          <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}
