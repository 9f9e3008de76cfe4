import { parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain rows, quoted fields with commas, quotes and line breaks, and CRLF', () => {
    expect(parseCsv('a,b,c\r\n1,"two, three","say ""hi"""\n"multi\nline",,x\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'two, three', 'say "hi"'],
      ['multi\nline', '', 'x'],
    ]);
  });

  it('drops a byte order mark and keeps a last row without a line break', () => {
    expect(parseCsv('\ufeffa,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('refuses a quote that is never closed, naming its line', () => {
    expect(() => parseCsv('a,b\n1,"open\n')).toThrow('a quoted field opened on line 2 is never closed');
  });
});
