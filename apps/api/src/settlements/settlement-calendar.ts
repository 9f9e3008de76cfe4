import type { SettlementInterval, Weekday } from '@paysign/contracts';

export const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** ISO 8601's day of the week, Monday 1 to Sunday 7, as the schedule's row keeps it. */
export const isoWeekdayOf = (weekday: Weekday): number => WEEKDAYS.indexOf(weekday) + 1;
export const weekdayOfIso = (iso: number): Weekday => WEEKDAYS[iso - 1] as Weekday;
const isoWeekdayAt = (instant: Date): number => ((instant.getUTCDay() + 6) % 7) + 1;

/** A schedule as the runs read it: what the merchant set, or the defaults. */
export interface ScheduleRule {
  interval: SettlementInterval;
  /** ISO day of the week, with `weekly` only. */
  weekday: number | null;
}

/**
 * The run of the schedules due at `now`, by its key: a run is one UTC day's,
 * from `runHourUtc` on, and a merchant has one settlement per currency and
 * run (the settlements table's UNIQUE), whatever the instances. Undefined
 * before the day's hour.
 */
export function runOf(now: Date, runHourUtc: number): { key: string; isoWeekday: number } | undefined {
  if (now.getUTCHours() < runHourUtc) return undefined;
  return { key: `schedule:${now.toISOString().slice(0, 10)}`, isoWeekday: isoWeekdayAt(now) };
}

/** The next start of a run the schedule takes part in, after `now`; null for `manual`. */
export function nextRunAfter(rule: ScheduleRule, now: Date, runHourUtc: number): Date | null {
  if (rule.interval === 'manual') return null;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), runHourUtc));
  for (let days = 0; days <= 7; days += 1) {
    const candidate = new Date(start.getTime() + days * 86_400_000);
    if (candidate <= now) continue;
    if (rule.interval === 'daily' || isoWeekdayAt(candidate) === rule.weekday) return candidate;
  }
  return null;
}
