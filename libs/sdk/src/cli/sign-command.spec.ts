import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { SIGNING_VECTORS } from '@paysign/signing/testing';
import { runPaysign } from './paysign';
import { createTestIo } from './testing-io';

function vectorArgs(v: (typeof SIGNING_VECTORS)[number]): string[] {
  const r = v.request;
  const args = ['sign', '--api-key', r.apiKey, '--nonce', r.nonce, '--timestamp', String(r.timestamp), '--method', r.method, '--path', r.path];
  return r.body === null ? args : [...args, '--body', r.body];
}

describe('paysign sign', () => {
  it.each(SIGNING_VECTORS.map((v) => [v.name, v] as const))('reproduces vector %s', async (_name, vector) => {
    const { io, lastJson } = createTestIo({ env: { PAYSIGN_SECRET_KEY: vector.request.secretKey } });
    expect(await runPaysign(vectorArgs(vector), io)).toBe(0);
    expect(lastJson()).toEqual({
      ...vector.want,
      headers: {
        'X-API-KEY': vector.request.apiKey,
        'X-Nonce': vector.request.nonce,
        'X-Timestamp': String(vector.request.timestamp),
        'X-Signature': vector.want.signature,
      },
    });
  });

  it('defaults the nonce to a fresh UUID and the timestamp to now', async () => {
    const { io, lastJson } = createTestIo();
    await runPaysign(['sign', '--api-key', 'k', '--secret-key', 's', '--method', 'get', '--path', '/payment/merchant-api/banks'], io);
    expect(lastJson().headers).toMatchObject({ 'X-Nonce': '00000000-0000-4000-8000-000000000001', 'X-Timestamp': '1767225600' });
  });

  it.each<[string, { given: string[]; want: RegExp }]>([
    ['a missing secret', { given: ['--api-key', 'k', '--method', 'GET', '--path', '/p'], want: /--secret-key is required \(or set PAYSIGN_SECRET_KEY\)/ }],
    ['a missing path', { given: ['--api-key', 'k', '--secret-key', 's', '--method', 'GET'], want: /--path is required/ }],
    ['an unknown flag', { given: ['--api-key', 'k', '--secret', 's'], want: /Unknown option '--secret'/ }],
    ['a timestamp in milliseconds with a dot', { given: ['--api-key', 'k', '--secret-key', 's', '--method', 'GET', '--path', '/p', '--timestamp', '1.5'], want: /--timestamp must be Unix epoch seconds/ }],
    ['a nested body', { given: ['--api-key', 'k', '--secret-key', 's', '--method', 'POST', '--path', '/p', '--body', '{"a":{}}'], want: /NESTED_VALUE/ }],
    ['invalid JSON', { given: ['--api-key', 'k', '--secret-key', 's', '--method', 'POST', '--path', '/p', '--body', '{amount:1}'], want: /INVALID_JSON/ }],
    ['a nonce with a space', { given: ['--api-key', 'k', '--secret-key', 's', '--method', 'GET', '--path', '/p', '--nonce', 'a b'], want: /nonce must be 1 to 128 characters/ }],
  ])('exits 2 on %s', async (_name, { given, want }) => {
    const { io, err, out } = createTestIo();
    expect(await runPaysign(['sign', ...given], io)).toBe(2);
    expect(err.join('\n')).toMatch(want);
    expect(out).toEqual([]);
  });

  it('runs from the repository root as `npm run -s paysign`', () => {
    const vector = SIGNING_VECTORS.find((v) => v.name === 'every-payin-field');
    if (!vector) throw new Error('vector every-payin-field is missing');
    const stdout = execFileSync('npm', ['run', '-s', 'paysign', '--', ...vectorArgs(vector), '--secret-key', vector.request.secretKey], {
      cwd: path.resolve(__dirname, '../../../..'),
      encoding: 'utf8',
    });
    const lastLine = stdout.trim().split('\n').pop() ?? '';
    expect(JSON.parse(lastLine)).toMatchObject(vector.want);
  });
});
