// The registry, the contract's ErrorCode enum and docs/errors.md state each code
// once, in agreement; the registry's message templates fill as documented.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCHEMAS } from '../generated/schemas';
import { ERROR_REGISTRY, ERROR_SUMMARIES, errorDefinition, errorMessage, errorTraitsOfStatus } from './error-registry';

const errorsDoc = fs.readFileSync(path.resolve(__dirname, '../../../../docs/errors.md'), 'utf8');
const registryCodes = Object.keys(ERROR_REGISTRY).sort();

describe('the error registry', () => {
  it('has exactly the codes of the contract', () => {
    expect([...SCHEMAS.ErrorCode.enum].sort()).toEqual(registryCodes);
  });

  it('is the table of docs/errors.md: code, status, retryability and meaning', () => {
    const rows = [...errorsDoc.matchAll(/^\| `([A-Z0-9_]+)` \| (\d{3}) \| (yes|no) \| (.+) \|$/gm)].map(([, code, status, retryable, summary]) => ({
      code,
      status: Number(status),
      retryable: retryable === 'yes',
      summary,
    }));
    expect(rows.map((r) => r.code).sort()).toEqual(registryCodes);
    for (const row of rows) {
      const { status, retryable } = ERROR_REGISTRY[row.code as keyof typeof ERROR_REGISTRY];
      const summary = ERROR_SUMMARIES[row.code as keyof typeof ERROR_SUMMARIES];
      expect({ code: row.code, status: row.status, retryable: row.retryable, summary: row.summary }).toEqual({ code: row.code, status, retryable, summary });
    }
  });

  it('fills a template with the values it names', () => {
    expect(errorMessage('PAYIN_NOT_FOUND', { reference: 'order-9' })).toBe('No payin with reference order-9 exists for this merchant. Check the reference you created it with.');
    expect(errorMessage('UPSTREAM_TIMEOUT', { bankCode: '058', timeoutMs: 300 })).toBe('Bank 058 did not answer within 300 ms. Retry later with backoff.');
    expect(errorMessage('AUTH_UNKNOWN_API_KEY', { detail: 'worded by the signer' })).toBe('worded by the signer');
  });

  it('knows its own codes and no others', () => {
    expect(errorDefinition('STORE_UNAVAILABLE')).toMatchObject({ status: 503, retryable: true, type: 'unavailable' });
    expect(errorDefinition('A_CODE_OF_A_NEWER_SERVICE')).toBeUndefined();
    expect(errorDefinition('toString')).toBeUndefined();
  });

  it.each<[number, ReturnType<typeof errorTraitsOfStatus>]>([
    [401, { type: 'authentication', retryable: false }],
    [502, { type: 'unavailable', retryable: true }],
    [503, { type: 'unavailable', retryable: true }],
    [418, { type: undefined, retryable: false }],
  ])('says what all codes of status %s share', (status, want) => {
    expect(errorTraitsOfStatus(status)).toEqual(want);
  });
});
