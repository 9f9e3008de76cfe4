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
  return isStorableInstant(instant.getTime()) ? instant : undefined;
}

/** The instants a timestamptz column takes as the service writes them (ISO 8601 with a four-digit year): from year 1 to year 9999, in UTC. */
const FIRST_STORABLE_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_STORABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether `ms` is an instant the stores can hold: a date outside years 1 to 9999 is refused before it reaches one. */
export function isStorableInstant(ms: number): boolean {
  return Number.isFinite(ms) && ms >= FIRST_STORABLE_MS && ms <= LAST_STORABLE_MS;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
