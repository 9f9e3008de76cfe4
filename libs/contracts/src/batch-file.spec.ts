import { BatchFileError, batchRowProblem, duplicateReferences, readBatchFile, type BatchFileRow } from './batch-file';

const HEADER = 'reference,bankCode,accountNumber,amount,narration,expectedAccountName';
const row = (cells: Partial<BatchFileRow>): BatchFileRow => ({ line: 2, reference: 'PAY-1', bankCode: '058', accountNumber: '0123456785', amount: '5000.50', narration: 'Salary', expectedAccountName: '', ...cells });

describe('readBatchFile', () => {
  it('reads the rows under the header in any column order, trimmed, each with its line', () => {
    expect(readBatchFile('amount,reference,narration,bankCode,accountNumber\r\n 12.50 ,PAY-1,Rent,058,0123456785\r\n')).toEqual([row({ amount: '12.50', narration: 'Rent' })]);
  });

  it.each([
    ['a quote never closed', { given: `${HEADER}\n"open`, want: 'is not valid CSV: a quoted field opened on line 2 is never closed' }],
    ['a missing column', { given: 'reference,amount\nx,1', want: 'needs a header row with the columns reference, bankCode, accountNumber, amount, narration (and optionally expectedAccountName); missing: bankCode, accountNumber, narration' }],
    ['an unknown column', { given: `${HEADER},note\nx,058,0123456785,1,Rent,,hi`, want: 'has unknown column(s) note; the columns are reference, bankCode, accountNumber, amount, narration, expectedAccountName' }],
    ['no row', { given: `${HEADER}\n`, want: 'has no payouts under its header' }],
  ])('refuses a file with %s', (_name, { given, want }) => {
    expect(() => readBatchFile(given)).toThrow(new BatchFileError(want));
  });
});

describe('batchRowProblem', () => {
  it.each([
    ['a good row', { given: row({}), want: undefined }],
    ['empty cells', { given: row({ bankCode: '', narration: '' }), want: 'bankCode, narration empty' }],
    ['a reference of dots', { given: row({ reference: '..' }), want: expect.stringContaining('the reference must be') }],
    ['three decimals', { given: row({ amount: '1.234' }), want: expect.stringContaining('the amount must be naira above 0') }],
    ['zero', { given: row({ amount: '0' }), want: expect.stringContaining('the amount must be naira above 0') }],
  ])('%s', (_name, { given, want }) => {
    expect(batchRowProblem(given)).toEqual(want);
  });
});

describe('duplicateReferences', () => {
  it('names each row whose reference an earlier row has, by index', () => {
    expect(duplicateReferences([row({}), row({ reference: 'PAY-2' }), row({}), row({ reference: '' }), row({ reference: '' })])).toEqual(new Map([[2, 'the reference appears on an earlier row']]));
  });
});
