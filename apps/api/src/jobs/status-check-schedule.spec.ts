import { ATTENTION_AFTER_S, statusCheckOffsetSeconds } from './status-check-schedule';

describe('the schedule of status checks of a PROCESSING payout', () => {
  const steps = [60, 300, 1800];
  const offsets = Array.from({ length: 80 }, (_, checks) => statusCheckOffsetSeconds(checks, steps));

  it('checks at 1, 5 and 30 minutes, then every hour to 72 hours, then every day', () => {
    expect(offsets.slice(0, 5)).toEqual([60, 300, 1800, 5400, 9000]);
    const hourly = offsets.filter((offset) => offset > 1800 && offset <= ATTENTION_AFTER_S);
    expect(hourly.every((offset, i) => i === 0 || offset - (hourly[i - 1] as number) === 3600)).toBe(true);
    const daily = offsets.filter((offset) => offset > ATTENTION_AFTER_S);
    expect(daily.length).toBeGreaterThan(3);
    expect(daily.every((offset, i) => i === 0 || offset - (daily[i - 1] as number) === 86_400)).toBe(true);
  });

  it('never goes back in time', () => {
    expect(offsets.every((offset, i) => i === 0 || offset > (offsets[i - 1] as number))).toBe(true);
  });
});
