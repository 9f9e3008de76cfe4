import { cellText, majorUnits, neutralisedText } from './csv-cells';
import { csvRecords } from './report-csv';
import { REPORTS } from './reports';

describe('the cells of a report', () => {
  it.each([
    ['a formula', '=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['a function after @', '@SUM(1+1)', "'@SUM(1+1)"],
    ['a plus', '+2348012345678', "'+2348012345678"],
    ['a minus', '-1+1', "'-1+1"],
    ['a tab', '\t=1', "'\t=1"],
    ['a carriage return', '\r=1', "'\r=1"],
    ['a formula after a space, which no spreadsheet runs', ' =1', ' =1'],
    ['plain text', 'Ada Obi', 'Ada Obi'],
    ['an email', 'ada@example.com', 'ada@example.com'],
  ])('neutralises %s in text', (_name, given, want) => {
    expect(neutralisedText(given)).toBe(want);
    expect(cellText('text', given)).toBe(want);
  });

  it.each([
    [150050n, '1500.50'],
    [5n, '0.05'],
    [-5n, '-0.05'],
    [-2251n, '-22.51'],
    [0n, '0.00'],
    [100000000000n, '1000000000.00'],
    [9007199254740993n, '90071992547409.93'],
  ])('writes %s kobo as %s naira, exactly, by integer arithmetic', (minor, want) => {
    expect(majorUnits(minor)).toBe(want);
    expect(cellText('amount', minor)).toBe(want);
  });

  it('keeps codes, our negative amounts and times as they are, and null as an empty cell', () => {
    expect(cellText('code', 'SUCCESSFUL')).toBe('SUCCESSFUL');
    expect(cellText('amount', -100n)).toBe('-1.00');
    expect(cellText('time', new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(cellText('text', null)).toBe('');
  });

  it('refuses a value of the wrong type for its column, which is a bug in the report', () => {
    expect(() => cellText('amount', '1.00')).toThrow(TypeError);
    expect(() => cellText('text', 5n)).toThrow(TypeError);
  });

  it('writes hostile names, emails, references and narrations as quoted text a spreadsheet shows, with CRLF records', () => {
    const entries = REPORTS.get('balance-entries');
    const payins = REPORTS.get('payins');
    if (!entries || !payins) throw new Error('reports missing');
    const raw = {
      reference: '-2+3',
      status: 'SUCCESSFUL',
      amount_minor: '150050',
      fee_minor: '2251',
      refunded_minor: '0',
      currency: 'NGN',
      customer_email: '=cmd|" /C calc"!A0@example.com',
      customer_name: '@SUM(1+1)',
      gateway: 'card',
      narration: 'line one\r\nline two, "quoted"',
      provider: 'sandbox',
      provider_reference: null,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:30:00.000Z',
      paid_at: '2026-01-01T00:02:00.000Z',
      failed_at: null,
      failure_reason: null,
    };
    const row = payins.rowOf(raw, new Date('2026-01-01T00:01:00Z'));
    expect(csvRecords(payins, [row])).toBe(
      `'-2+3,SUCCESSFUL,1500.50,22.51,0.00,NGN,"'=cmd|"" /C calc""!A0@example.com",'@SUM(1+1),card,"line one\r\nline two, ""quoted""",sandbox,2026-01-01T00:00:00.000Z,2026-01-01T00:02:00.000Z,,,WzE3NjcyMjU2MDAwMDAsIi0yKzMiXQ\r\n`,
    );
    const entry = entries.rowOf({ id: '7', type: 'payin_fee', kind: 'pending', amount_minor: '-2251', currency: 'NGN', object_type: 'payin', object_id: '=1', created_at: '2026-01-01T00:00:00.000Z' }, new Date());
    expect(csvRecords(entries, [entry])).toBe("7,payin_fee,pending,-22.51,NGN,payin,'=1,2026-01-01T00:00:00.000Z,WzE3NjcyMjU2MDAwMDAsIjciXQ\r\n");
  });
});
