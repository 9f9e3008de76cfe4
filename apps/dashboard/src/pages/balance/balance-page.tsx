import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { BalancesTable } from '../../components/balances-table';
import { CardSection } from '../../components/card-section';
import { ExportButton } from '../../components/export-button';
import { LoadOlderButton } from '../../components/load-older-button';
import { Page } from '../../components/page';
import { QueryCard } from '../../components/query-card';
import { QueryStatus } from '../../components/query-status';
import { useBalanceEntries, useBalances } from './balance-queries';
import { EntriesTable, entryTypeLabel } from './entries-table';

type Schemas = DashboardComponents['schemas'];
// The contract's enums, in the order the page offers them.
const BALANCES: readonly Schemas['BalanceKind'][] = ['available', 'pending', 'held'];
const ENTRY_TYPES: readonly Schemas['BalanceEntryType'][] = ['payin_credit', 'payin_fee', 'settlement', 'payout_hold', 'payout_release', 'payout_debit', 'payout_fee', 'payout_reversal', 'payout_fee_refund', 'refund_hold', 'refund_release', 'refund_debit', 'refund_fee_return', 'correction'];
const DAY_MS = 86_400_000;

/** A day picked in a date field (`2026-11-02`) as the UTC instant it starts at; `nextDay` for the end of a range that includes it. */
const dayStart = (day: string, nextDay = false): string | undefined => (day ? new Date(Date.parse(`${day}T00:00:00Z`) + (nextDay ? DAY_MS : 0)).toISOString() : undefined);

/** The balances per currency, and every entry that moved them, filtered, newest first. */
export function BalancePage() {
  const balances = useBalances();
  return (
    <Page title="Balance">
      <QueryCard id="balances" title="Balances" query={balances}>
        {({ data }) => <BalancesTable balances={data} />}
      </QueryCard>
      <Entries currencies={balances.data?.data.map((b) => b.currency) ?? ['NGN']} />
    </Page>
  );
}

function Entries({ currencies }: { currencies: readonly Schemas['Currency'][] }) {
  const ids = { currency: useId(), balance: useId(), type: useId(), from: useId(), to: useId() };
  const [currency, setCurrency] = useState<Schemas['Currency']>('NGN');
  const [balance, setBalance] = useState<Schemas['BalanceKind'] | ''>('');
  const [type, setType] = useState<Schemas['BalanceEntryType'] | ''>('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  // A range whose end is before its start is not sent: the page says why instead.
  const backwards = fromDay !== '' && toDay !== '' && toDay < fromDay;
  const filters = { currency, balance: balance || undefined, type: type || undefined, from: dayStart(fromDay), to: backwards ? undefined : dayStart(toDay, true) };
  const entries = useBalanceEntries(filters);
  const all = entries.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <CardSection id="entries" title="Entries">
      <form className="filters" role="search" aria-label="Filter entries" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.currency}>Currency</label>
          <select id={ids.currency} value={currency} onChange={(event) => setCurrency(event.target.value as Schemas['Currency'])}>
            {currencies.map((code) => <option key={code} value={code}>{code}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.balance}>Balance</label>
          <select id={ids.balance} value={balance} onChange={(event) => setBalance(event.target.value as Schemas['BalanceKind'] | '')}>
            <option value="">Any</option>
            {BALANCES.map((kind) => <option key={kind} value={kind}>{kind}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.type}>Type</label>
          <select id={ids.type} value={type} onChange={(event) => setType(event.target.value as Schemas['BalanceEntryType'] | '')}>
            <option value="">Any</option>
            {ENTRY_TYPES.map((value) => <option key={value} value={value}>{entryTypeLabel(value)}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From (UTC day)</label>
          <input id={ids.from} type="date" value={fromDay} onChange={(event) => setFromDay(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To (UTC day, included)</label>
          <input id={ids.to} type="date" value={toDay} onChange={(event) => setToDay(event.target.value)} aria-invalid={backwards} />
        </div>
      </form>
      {backwards ? <p role="alert" className="alert">The last day is before the first; the list ignores it until it is on or after the first.</p> : null}
      <QueryStatus query={entries} />
      {entries.isSuccess ? <EntriesTable label={`${currency} entries, newest first`} entries={all} /> : null}
      <LoadOlderButton query={entries}>Load older entries</LoadOlderButton>
      <ExportButton report="balance-entries" filters={filters} />
    </CardSection>
  );
}
