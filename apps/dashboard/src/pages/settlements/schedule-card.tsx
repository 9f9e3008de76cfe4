import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { CardSection } from '../../components/card-section';
import { DateTime } from '../../components/date-time';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { QueryStatus } from '../../components/query-status';
import { koboOfNaira, nairaTextOf } from '../../money/parse-naira';
import { useSetSettlementSchedule, useSettlementSchedule } from './settlement-queries';

type Schemas = DashboardComponents['schemas'];
const INTERVALS: readonly Schemas['SettlementInterval'][] = ['daily', 'weekly', 'manual'];
const WEEKDAYS: readonly Schemas['Weekday'][] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** When the available balance is settled; owners and admins change it. */
export function ScheduleCard({ manage }: { manage: boolean }) {
  const schedule = useSettlementSchedule();
  return (
    <CardSection id="schedule" title="Schedule">
      <QueryStatus query={schedule} />
      {schedule.data ? (
        <>
          <dl className="details">
            <dt>Settles</dt>
            <dd>
              {schedule.data.interval === 'weekly' ? `weekly, on ${schedule.data.weekday ?? ''}` : schedule.data.interval}
              {schedule.data.interval === 'manual' ? ' (only when asked)' : `, at ${String(schedule.data.runHourUtc).padStart(2, '0')}:00 UTC`}
            </dd>
            <dt>Least amount settled</dt>
            <dd><Money amount={schedule.data.minimumAmount} currency="NGN" /></dd>
            <dt>Next run</dt>
            <dd>{schedule.data.nextRunAt ? <DateTime value={schedule.data.nextRunAt} /> : 'None due'}</dd>
          </dl>
          {schedule.data.paused ? <p className="warning">Settlements are paused: settlement {schedule.data.pausedBy} failed. Saving the schedule says the account is right and resumes them.</p> : null}
          {manage ? <ScheduleForm schedule={schedule.data} /> : null}
        </>
      ) : null}
    </CardSection>
  );
}

function ScheduleForm({ schedule }: { schedule: Schemas['SettlementSchedule'] }) {
  const ids = { interval: useId(), weekday: useId(), minimum: useId(), minimumHint: useId() };
  const [interval, setInterval] = useState(schedule.interval);
  const [weekday, setWeekday] = useState<Schemas['Weekday']>(schedule.weekday ?? 'friday');
  const [minimum, setMinimum] = useState(nairaTextOf(schedule.minimumAmount));
  const save = useSetSettlementSchedule();
  const minimumKobo = koboOfNaira(minimum);

  return (
    <form
      className="inline-form"
      aria-label="Change the schedule"
      onSubmit={(event) => {
        event.preventDefault();
        if (minimumKobo === undefined) return;
        save.mutate({ interval, minimumAmount: minimumKobo, ...(interval === 'weekly' ? { weekday } : {}) });
      }}
    >
      <div className="field">
        <label htmlFor={ids.interval}>Interval</label>
        <select id={ids.interval} value={interval} onChange={(event) => setInterval(event.target.value as Schemas['SettlementInterval'])}>
          {INTERVALS.map((value) => <option key={value} value={value}>{value}</option>)}
        </select>
      </div>
      {interval === 'weekly' ? (
        <div className="field">
          <label htmlFor={ids.weekday}>Day</label>
          <select id={ids.weekday} value={weekday} onChange={(event) => setWeekday(event.target.value as Schemas['Weekday'])}>
            {WEEKDAYS.map((value) => <option key={value} value={value}>{value}</option>)}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={ids.minimum}>Least amount (₦)</label>
        <input id={ids.minimum} inputMode="decimal" value={minimum} onChange={(event) => setMinimum(event.target.value)} aria-invalid={minimumKobo === undefined} aria-describedby={ids.minimumHint} />
        <span id={ids.minimumHint} className="hint">{minimumKobo === undefined ? 'Naira, with at most 2 decimals, such as 5000.' : 'A run settles nothing below it.'}</span>
      </div>
      <div className="field">
        <button type="submit" className="button" disabled={save.isPending || minimumKobo === undefined}>Save schedule</button>
      </div>
      <ErrorAlert error={save.error} />
      {save.isSuccess ? <p role="status">Schedule saved.</p> : null}
    </form>
  );
}
