import type { DashboardComponents } from '@paysign/contracts';
import { DataTable } from '../../components/data-table';
import { Money } from '../../components/money';

type BatchDryRun = DashboardComponents['schemas']['BatchDryRun'];

/** Each row of a batch file as the dry run found it: the name the bank gave, or what is wrong with it. */
export function DryRunTable({ dryRun }: { dryRun: BatchDryRun }) {
  return (
    <DataTable
      label="Rows of the file, as the dry run found them"
      rows={dryRun.rows}
      head={
        <>
          <th scope="col">Line</th>
          <th scope="col">Reference</th>
          <th scope="col">Account</th>
          <th scope="col">Amount</th>
          <th scope="col">Account holder</th>
          <th scope="col">Result</th>
        </>
      }
      row={(row) => (
        <tr key={row.line}>
          <th scope="row">{row.line}</th>
          <td>
            <code>{row.reference || '—'}</code>
          </td>
          <td>
            {row.bankCode}/{row.accountNumber}
          </td>
          <td>{row.amount === null ? '—' : <Money amount={row.amount} currency="NGN" />}</td>
          <td>
            {row.accountName ?? '—'}
            {row.nameMatch && row.nameMatch !== 'not_checked' ? <span className="hint"> (name {row.nameMatch})</span> : null}
          </td>
          <td>{row.problem ? <span className="badge failed">Problem: {row.problem}</span> : <span className="badge active">OK</span>}</td>
        </tr>
      )}
    />
  );
}
