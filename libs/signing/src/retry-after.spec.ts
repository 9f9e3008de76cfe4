import { parseRetryAfter } from './retry-after';

const NOW = Date.parse('2026-11-24T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each<[string, string | null | undefined, number | undefined]>([
    ['delay-seconds', '120', 120],
    ['delay-seconds with spaces', ' 3 ', 3],
    ['zero', '0', 0],
    ['an HTTP date 90 s ahead', 'Tue, 24 Nov 2026 10:01:30 GMT', 90],
    ['an HTTP date in the past', 'Tue, 24 Nov 2026 09:00:00 GMT', 0],
    ['a negative number', '-5', undefined],
    ['a fraction', '1.5', undefined],
    ['text', 'soon', undefined],
    ['an absent header', null, undefined],
    ['an undefined header', undefined, undefined],
  ])('reads %s', (_name, value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });
});
