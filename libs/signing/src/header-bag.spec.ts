import { headerBagFromPairs, headerBagFromRaw } from './header-bag';

describe('header bags', () => {
  it.each<[string, { given: string[]; want: Record<string, string | string[]> }]>([
    ['names lower-cased', { given: ['X-API-KEY', 'pk_1', 'Content-Type', 'application/json'], want: { 'x-api-key': 'pk_1', 'content-type': 'application/json' } }],
    ['a header sent twice kept as two values, in order', { given: ['X-Nonce', 'a', 'x-nonce', 'b', 'X-NONCE', 'c'], want: { 'x-nonce': ['a', 'b', 'c'] } }],
    ['a value with a comma kept whole', { given: ['X-Nonce', 'a, b'], want: { 'x-nonce': 'a, b' } }],
    ['an odd trailing name ignored', { given: ['A', '1', 'B'], want: { a: '1' } }],
  ])('from raw headers: %s', (_name, { given, want }) => {
    expect(headerBagFromRaw(given)).toEqual(want);
  });

  it('gives __proto__ no special meaning', () => {
    const bag = headerBagFromPairs([['__proto__', 'x']]);
    expect(Object.keys(bag)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
