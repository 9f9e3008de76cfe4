/** RFC 3339 with a time zone: what the contract's `format: date-time` means, and unambiguous. */
const DATE_TIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * The instant an RFC 3339 date-time names, or undefined when it names none.
 * Stricter than `new Date`, which rolls 2026-02-30 over into March and reads
 * 24:00 as the next day: every field must be in its calendar range.
 */
export function parseDateTime(raw: string): Date | undefined {
  const match = DATE_TIME.exec(raw);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const instant = new Date(raw);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The latest instant a JavaScript Date holds (±100,000,000 days around 1970); past it, a Date is invalid. */
export const MAX_DATE_MS = 8.64e15;
