import { ABLATABLE, firstSerialisationRepeated, parseAblations } from './ablations';

describe('parseAblations', () => {
  it('reads a comma-separated list of the components', () => {
    expect([...parseAblations('log,serialisation')]).toEqual(['log', 'serialisation']);
    expect(parseAblations(undefined).size).toBe(0);
    expect(parseAblations('').size).toBe(0);
  });

  it('refuses a name that is not a component, naming the components', () => {
    expect(() => parseAblations('log,serialization')).toThrow(`serialization is not a component to switch off; the components are ${ABLATABLE.join(', ')}`);
  });
});

describe('firstSerialisationRepeated', () => {
  it.each([
    ['the same fields and status: the first text again', { reference: 'a', amount: 1 }, 201, { reference: 'b', amount: 2 }, 201, '{"reference":"a","amount":1}'],
    ['other fields: their own text', { reference: 'a', amount: 1 }, 201, { payoutReference: 'b' }, 201, '{"payoutReference":"b"}'],
    ['another status: its own text', { code: 'X' }, 400, { code: 'Y' }, 409, '{"code":"Y"}'],
    ['a list, then another: the first text again', [1, 2], 200, [3], 200, '[1,2]'],
  ])('%s', (_case, first, firstStatus, second, secondStatus, expected) => {
    const serialise = firstSerialisationRepeated();
    expect(serialise(first, firstStatus)).toBe(JSON.stringify(first));
    expect(serialise(second, secondStatus)).toBe(expected);
  });
});
