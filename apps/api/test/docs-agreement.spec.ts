// The error registry, the contract's ErrorCode enum and docs/errors.md list the
// same codes with the same statuses; docs/sandbox.md lists the real fixtures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContractValidator } from '@paysign/contracts/testing';
import { SANDBOX_ACCOUNTS } from '../src/accounts/sandbox-accounts';
import { ERROR_CODES } from '../src/errors/error-codes';

const root = path.resolve(__dirname, '../../..');
const errorsDoc = fs.readFileSync(path.join(root, 'docs/errors.md'), 'utf8');
const sandboxDoc = fs.readFileSync(path.join(root, 'docs/sandbox.md'), 'utf8');
const contract = new ContractValidator().document as unknown as { components: { schemas: { ErrorCode: { enum: string[] } } } };

describe('error codes', () => {
  const registry = Object.keys(ERROR_CODES).sort();

  it('are the same in the registry and in the contract', () => {
    expect([...contract.components.schemas.ErrorCode.enum].sort()).toEqual(registry);
  });

  it('are the same in the registry and in docs/errors.md, with the same status and retryability', () => {
    const rows = [...errorsDoc.matchAll(/^\| `([A-Z0-9_]+)` \| (\d{3}) \| (yes|no) \|/gm)].map(([, code, status, retryable]) => ({ code, status: Number(status), retryable: retryable === 'yes' }));
    expect(rows.map((r) => r.code).sort()).toEqual(registry);
    for (const row of rows) expect(ERROR_CODES[row.code as keyof typeof ERROR_CODES]).toEqual({ status: row.status, retryable: row.retryable });
  });
});

describe('docs/sandbox.md', () => {
  it.each(SANDBOX_ACCOUNTS.map((a) => [`${a.bankCode}/${a.accountNumber}`, a] as const))('lists sandbox account %s', (_name, account) => {
    expect(sandboxDoc).toContain(`| \`${account.bankCode}\` | \`${account.accountNumber}\` |`);
    if (account.behaviour.outcome === 'found') expect(sandboxDoc).toContain(account.behaviour.accountName);
  });

  it('gives the demo merchant of the default merchants file', () => {
    const merchants = JSON.parse(fs.readFileSync(path.join(root, 'apps/api/config/merchants.sandbox.json'), 'utf8')) as Array<{ merchantId: string; credentials: Array<{ apiKey: string; secretKey: string }> }>;
    for (const merchant of merchants) {
      expect(sandboxDoc).toContain(merchant.merchantId);
      for (const c of merchant.credentials) expect(sandboxDoc).toContain(c.secretKey);
    }
  });
});
