import { nextCheck } from './provider-checks';

describe('the next provider check', () => {
  const offsets = (n: number) => [60, 300, 1800][n] ?? 1800 + (n - 2) * 3600;
  const start = 1_000_000;

  it.each<[string, { nowS: number; done: number }, { checks: number; atS: number }]>([
    ['the first step, before it is due', { nowS: 0, done: 0 }, { checks: 0, atS: 60 }],
    ['the step after the one just made', { nowS: 61, done: 1 }, { checks: 1, atS: 300 }],
    ['a step due exactly now is behind', { nowS: 300, done: 1 }, { checks: 2, atS: 1800 }],
    ['past the listed steps, the schedule goes on', { nowS: 5000, done: 3 }, { checks: 3, atS: 5400 }],
    ['a late check skips the steps it missed', { nowS: 10_000, done: 1 }, { checks: 5, atS: 12_600 }],
  ])('%s', (_case, given, want) => {
    expect(nextCheck(offsets, start, start + given.nowS * 1000, given.done)).toEqual({ checks: want.checks, atMs: start + want.atS * 1000 });
  });
});
