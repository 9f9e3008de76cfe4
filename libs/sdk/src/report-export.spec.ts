import { completeRecords } from './report-export';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (part: Uint8Array) => new TextDecoder().decode(part);

describe('completeRecords', () => {
  it.each([
    ['two whole records', 'a,b\r\nc,d\r\n', ['a,b\r\n', 'c,d\r\n'], ''],
    ['a record cut short', 'a,b\r\nc,', ['a,b\r\n'], 'c,'],
    ['a cut between CR and LF', 'a,b\r', [], 'a,b\r'],
    ['a line break inside quotes', '"x\r\ny",b\r\nc', ['"x\r\ny",b\r\n'], 'c'],
    ['a doubled quote before the line break', '"say ""hi""\r\n",b\r\n', ['"say ""hi""\r\n",b\r\n'], ''],
    ['a quoted field cut in the middle', '"x\r\n', [], '"x\r\n'],
    ['text in several bytes per character', 'Adaeze ₦,1\r\nÈ', ['Adaeze ₦,1\r\n'], 'È'],
  ])('finds %s', (_name, given, want, rest) => {
    const found = completeRecords(bytes(given));
    expect(found.records.map(text)).toEqual(want);
    expect(text(found.rest)).toBe(rest);
  });
});
