import { parseDateTime } from './rfc3339';

describe('parseDateTime', () => {
  it.each([
    ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.000Z'],
    ['2028-02-29T12:30:59.123+01:00', '2028-02-29T11:30:59.123Z'],
    ['2026-12-31t23:59:59-23:59', '2027-01-01T23:58:59.000Z'],
  ])('reads %s as %s', (raw, iso) => {
    expect(parseDateTime(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    ['a day past the month', '2026-02-30T00:00:00Z'],
    ['February 29 of a common year', '2026-02-29T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['day 0', '2026-01-00T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['minute 60', '2026-01-01T23:60:00Z'],
    ['second 60', '2026-01-01T23:59:60Z'],
    ['an offset of 24 hours', '2026-01-01T00:00:00+24:00'],
    ['no time zone', '2026-01-01T00:00:00'],
    ['a date alone', '2026-01-01'],
    ['year 0000, which no store takes', '0000-01-01T00:00:00Z'],
    ['an offset that moves it before year 1', '0001-01-01T00:00:00+23:59'],
    ['an offset that moves it past year 9999', '9999-12-31T23:59:59-23:59'],
  ])('refuses %s (%s)', (_name, raw) => {
    expect(parseDateTime(raw)).toBeUndefined();
  });
});
