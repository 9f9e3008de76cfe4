import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { Page } from '../../components/page';
import { BATCHES_KEY } from './batches-page';
import { DryRunTable } from './dry-run-table';

/**
 * A batch from a CSV file, as `paysign batches create --file` makes one:
 * every row is enquired and shown first (the dry run), and the batch can be
 * made only from a file whose every row passes. The server checks the file
 * again when it makes the batch.
 */
export function NewBatchPage() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [csv, setCsv] = useState('');
  const [reference, setReference] = useState('');
  const [title, setTitle] = useState('');
  const ids = { file: useId(), fileHint: useId(), reference: useId(), title: useId() };
  const dryRun = useMutation({ mutationFn: (text: string) => call(() => client.POST('/payout-batches/dry-run', { body: { csv: text } })) });
  const create = useMutation({
    mutationFn: () => call(() => client.POST('/payout-batches', { body: { reference, title, csv } })),
    onSuccess: async (made) => {
      await queryClient.invalidateQueries({ queryKey: BATCHES_KEY });
      await navigate(`/payout-batches/${encodeURIComponent(made.batch.reference)}`);
    },
  });
  const passed = dryRun.data !== undefined && dryRun.data.problems === 0;

  return (
    <Page title="Upload a payout batch">
      <p>
        <Link to="/payout-batches">All payout batches</Link>
      </p>
      <CardSection id="batch-file" title="1. The file">
        <div className="field">
          <label htmlFor={ids.file}>CSV file</label>
          <input
            id={ids.file}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={ids.fileHint}
            onChange={async (event) => {
              const file = event.target.files?.[0];
              if (!file) return;
              const text = await file.text();
              setCsv(text);
              create.reset();
              dryRun.mutate(text);
            }}
          />
          <p id={ids.fileHint} className="hint">
            A header row, then one payout a row: reference, bankCode, accountNumber, amount (naira, such as 5000.50), narration, and optionally expectedAccountName. The same file as <code>paysign batches create --file</code>.
          </p>
        </div>
        {dryRun.isPending ? <p role="status">Checking every row with the bank…</p> : null}
        <ErrorAlert error={dryRun.error} />
      </CardSection>
      {dryRun.data ? (
        <CardSection id="batch-dry-run" title="2. The dry run">
          <p role="status">
            {dryRun.data.count} payouts totalling <Money amount={dryRun.data.total} currency="NGN" />.{' '}
            {dryRun.data.problems === 0 ? 'Every row passes. Nothing is created until you make the batch.' : `${dryRun.data.problems} ${dryRun.data.problems === 1 ? 'row has' : 'rows have'} a problem: nothing can be created. Correct the file and upload it again.`}
          </p>
          <DryRunTable dryRun={dryRun.data} />
        </CardSection>
      ) : null}
      {passed ? (
        <CardSection id="batch-create" title="3. The batch">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              create.mutate();
            }}
          >
            <div className="field">
              <label htmlFor={ids.reference}>Batch reference</label>
              <input id={ids.reference} required maxLength={64} pattern="[A-Za-z0-9._\-]{1,64}" value={reference} onChange={(event) => setReference(event.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={ids.title}>Title</label>
              <input id={ids.title} required maxLength={100} placeholder="November payroll" value={title} onChange={(event) => setTitle(event.target.value)} />
            </div>
            <button type="submit" className="button" disabled={create.isPending}>
              Make the batch
            </button>
          </form>
          <ErrorAlert error={create.error} />
        </CardSection>
      ) : null}
    </Page>
  );
}
