import { matchName, sameName } from './name-match';

describe("matching the name a merchant expects against the enquired one", () => {
  it.each([
    ['Adaeze Nwosu', 'ADAEZE NWOSU', 'exact'],
    ['nwosu,  adaeze', 'ADAEZE NWOSU', 'exact'],
    ['Adaèze Nwosu', 'ADAEZE NWOSU', 'exact'],
    ['Adaeze Nwosu', 'ADAEZE CHIOMA NWOSU', 'partial'],
    ['Adaeze Ngozi Nwosu', 'ADAEZE CHIOMA NWOSU', 'partial'],
    ['Chinedu Okafor', 'ADAEZE NWOSU', 'none'],
    ['Adaeze Okafor', 'ADAEZE NWOSU', 'none'],
    ['-', 'ADAEZE NWOSU', 'none'],
  ])('%s against %s is %s', (expected, enquired, match) => {
    expect(matchName(expected, enquired)).toBe(match);
  });

  it('judges a name changed at dispatch on the words alone', () => {
    expect(sameName('ADAEZE NWOSU', 'Nwosu Adaeze')).toBe(true);
    expect(sameName('ADAEZE NWOSU', 'ADAEZE NWOSU-OKAFOR')).toBe(false);
  });
});
