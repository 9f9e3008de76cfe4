// docs/sandbox.md lists the real sandbox fixtures and the demo merchant.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SANDBOX_ACCOUNTS } from '../src/providers/sandbox/sandbox-accounts';
import { SANDBOX_PAYOUT_ACCOUNTS } from '../src/providers/sandbox/sandbox-payout-accounts';

const root = path.resolve(__dirname, '../../..');
const sandboxDoc = fs.readFileSync(path.join(root, 'docs/sandbox.md'), 'utf8');

describe('docs/sandbox.md', () => {
  it.each(SANDBOX_ACCOUNTS.map((a) => [`${a.bankCode}/${a.accountNumber}`, a] as const))('lists sandbox account %s', (_name, account) => {
    expect(sandboxDoc).toContain(`| \`${account.bankCode}\` | \`${account.accountNumber}\` |`);
    if (account.behaviour.outcome === 'found') expect(sandboxDoc).toContain(account.behaviour.accountName);
  });

  it.each(SANDBOX_PAYOUT_ACCOUNTS.map((a) => [a.accountNumber, a] as const))('says what a payout to sandbox account %s does', (_number, account) => {
    const row = sandboxDoc.split('\n').find((line) => line.startsWith(`| \`${account.bankCode}\` | \`${account.accountNumber}\` | 200, \`${account.accountName}\` |`));
    expect(row).toBeDefined();
    if ('reason' in account.behaviour) expect(row).toContain(`\`${account.behaviour.reason}\``);
  });

  it('says that a payout simulation is the sandbox provider\'s own word, refused once its transfer was made otherwise', () => {
    expect(sandboxDoc).toContain("written in the sandbox provider's books");
    expect(sandboxDoc).toContain('refused with\n  `409 PAYOUT_TRANSITION_NOT_ALLOWED`');
  });

  it('gives the demo merchant of the default merchants file', () => {
    const merchants = JSON.parse(fs.readFileSync(path.join(root, 'apps/api/config/merchants.sandbox.json'), 'utf8')) as Array<{ merchantId: string; credentials: Array<{ apiKey: string; secretKey: string }> }>;
    for (const merchant of merchants) {
      expect(sandboxDoc).toContain(merchant.merchantId);
      for (const c of merchant.credentials) expect(sandboxDoc).toContain(c.secretKey);
    }
  });
});
