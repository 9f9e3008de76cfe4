import { buildBaseString, hmacSha256Hex, sha256Hex, sign } from '@paysign/signing';
import { runPaysign } from './paysign';
import { createTestIo } from './testing-io';
import type { VerifyOutput } from './verify-command';

const SECRET = 'sk_test_verify_only';
const KEY = { apiKey: 'pk_test_verify', nonce: 'n-verify-1', timestamp: '1767225600' };
const PATH = '/payment/api/payins?source=web';
// Unsorted, with a trailing zero: so that each mistake below gives its own signature.
const BODY = '{"reference":"ord-1","amount":1000.50,"currency":"NGN","narration":"Order 1"}';
const CANONICAL = 'amount=1000.50&currency=NGN&narration=Order 1&reference=ord-1';

/** The signature a client computes over these (possibly mistaken) components. */
function signatureOver(changes: { method?: string; path?: string; canonicalBody?: string; bodySha256Hex?: string; secretKey?: string } = {}): string {
  const bodySha256Hex = changes.bodySha256Hex ?? sha256Hex(changes.canonicalBody ?? CANONICAL);
  const baseString = buildBaseString({ ...KEY, method: changes.method ?? 'POST', requestPath: changes.path ?? PATH, bodySha256Hex });
  return hmacSha256Hex(changes.secretKey ?? SECRET, baseString);
}

/** A captured request head, as a proxy or `curl -v` shows it. */
function capturedHead(signature: string, extraLines: string[] = []): string {
  return [
    `POST ${PATH} HTTP/1.1`,
    'Host: pay.example.com',
    `X-API-KEY: ${KEY.apiKey}`,
    `X-Nonce: ${KEY.nonce}`,
    `X-Timestamp: ${KEY.timestamp}`,
    `X-Signature: ${signature}`,
    'X-Merchant-ID: MCH-1',
    'X-Tenant-ID: TEN-1',
    'Content-Type: application/json',
    ...extraLines,
    '',
  ].join('\r\n');
}

async function runVerify(files: Record<string, string>, args: string[], env: Record<string, string> = { PAYSIGN_SECRET_KEY: SECRET }) {
  const { io, out, err } = createTestIo({
    env,
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error('ENOENT: no such file');
      return Buffer.from(text, 'utf8');
    },
  });
  const code = await runPaysign(['verify', ...args], io);
  const last = out[out.length - 1];
  return { code, out, err, result: (last?.startsWith('{') ? JSON.parse(last) : undefined) as VerifyOutput | undefined };
}

const verifyCaptured = (signature: string, args: string[] = [], extraLines: string[] = []) =>
  runVerify({ 'head.txt': capturedHead(signature, extraLines), 'body.json': BODY }, ['--headers', 'head.txt', '--body-file', 'body.json', ...args]);

describe('paysign verify', () => {
  it('accepts a valid signature and prints the server values', async () => {
    const { code, result } = await verifyCaptured(signatureOver());
    expect(code).toBe(0);
    expect(result).toEqual({
      valid: true,
      server: { canonicalBody: CANONICAL, bodySha256Hex: sha256Hex(CANONICAL), baseString: expect.stringContaining(`\nPOST\n${PATH}\n`), signature: signatureOver() },
    });
  });

  it('quotes the numbers of this request that re-serialising changed', async () => {
    const body = '{"amount":250.10,"count":3.0,"fee":7,"reference":"ord-2"}';
    const reparsed = JSON.stringify(JSON.parse(body));
    const signature = sign({ ...KEY, timestamp: Number(KEY.timestamp), secretKey: SECRET, method: 'POST', path: PATH, body: reparsed }).signature;
    const { result } = await runVerify({ 'head.txt': capturedHead(signature), 'body.json': body }, ['--headers', 'head.txt', '--body-file', 'body.json']);
    expect(result).toMatchObject({ valid: false, differs: 'canonicalBody', explanation: expect.stringContaining('(amount: 250.10 became 250.1; count: 3.0 became 3)') });
  });

  it('agrees with sign() on the request it signed', async () => {
    const signed = sign({ ...KEY, timestamp: Number(KEY.timestamp), secretKey: SECRET, method: 'POST', path: PATH, body: BODY });
    expect((await verifyCaptured(signed.signature)).result).toMatchObject({ valid: true, server: { baseString: signed.baseString } });
  });

  it.each<[string, { signature: string; differs: string; explanation: RegExp }]>([
    ['numbers re-serialised', { signature: signatureOver({ canonicalBody: 'amount=1000.5&currency=NGN&narration=Order 1&reference=ord-1' }), differs: 'canonicalBody', explanation: /1000\.50 became 1000\.5/ }],
    ['fields in the order sent', { signature: signatureOver({ canonicalBody: 'reference=ord-1&amount=1000.50&currency=NGN&narration=Order 1' }), differs: 'canonicalBody', explanation: /not sorted/ }],
    ['values rendered as JSON', { signature: signatureOver({ canonicalBody: 'amount=1000.5&currency="NGN"&narration="Order 1"&reference="ord-1"' }), differs: 'canonicalBody', explanation: /with quotes/ }],
    ['an empty body signed', { signature: signatureOver({ canonicalBody: '' }), differs: 'canonicalBody', explanation: /signed an empty body/ }],
    ['the raw JSON hashed', { signature: signatureOver({ bodySha256Hex: sha256Hex(BODY) }), differs: 'bodySha256Hex', explanation: /hashed the raw JSON text/ }],
    ['the path without /payment', { signature: signatureOver({ path: '/api/payins?source=web' }), differs: 'baseString', explanation: /without the \/payment context path/ }],
    ['the path without its query', { signature: signatureOver({ path: '/payment/api/payins' }), differs: 'baseString', explanation: /without its query string/ }],
    ['the method in lower case', { signature: signatureOver({ method: 'post' }), differs: 'baseString', explanation: /lower case/ }],
  ])('names the value that differs when the client signed %s', async (_name, { signature, differs, explanation }) => {
    const { code, out, result } = await verifyCaptured(signature);
    expect(code).toBe(1);
    expect(result).toMatchObject({ valid: false, code: 'AUTH_SIGNATURE_MISMATCH', differs, explanation: expect.stringMatching(explanation) });
    expect(result?.server?.signature).toBe(signatureOver());
    expect(out).toContain(`differs: ${differs}`);
  });

  it('says when no known mistake explains the signature', async () => {
    const { code, result } = await verifyCaptured(signatureOver({ secretKey: 'sk_some_other_secret' }));
    expect(code).toBe(1);
    expect(result).toMatchObject({ valid: false, code: 'AUTH_SIGNATURE_MISMATCH', explanation: expect.stringMatching(/check the secret key, or pass --client-values/) });
    expect(result?.differs).toBeUndefined();
  });

  describe('with the client values', () => {
    const clientValues = (changes: Parameters<typeof sign>[0]) => JSON.stringify(sign(changes));
    const base = { ...KEY, timestamp: Number(KEY.timestamp), secretKey: SECRET, method: 'POST', path: PATH, body: BODY };

    it.each<[string, { client: Parameters<typeof sign>[0]; differs: string; explanation: RegExp }]>([
      ['a different body', { client: { ...base, body: BODY.replace('1000.50', '1000.5') }, differs: 'canonicalBody', explanation: /canonicalBody differs/ }],
      ['a different path', { client: { ...base, path: '/payment/api/payins' }, differs: 'baseString', explanation: /baseString differs from the server's; the values before it agree/ }],
      ['another secret', { client: { ...base, secretKey: 'sk_rotated_away' }, differs: 'signature', explanation: /another secret key/ }],
    ])('finds %s', async (_name, { client, differs, explanation }) => {
      const signature = sign(client).signature;
      const { code, out, result } = await runVerify(
        { 'head.txt': capturedHead(signature), 'body.json': BODY, 'client.json': clientValues(client) },
        ['--headers', 'head.txt', '--body-file', 'body.json', '--client-values', 'client.json'],
      );
      expect(code).toBe(1);
      expect(result).toMatchObject({ valid: false, differs, explanation: expect.stringMatching(explanation) });
      expect(out.some((line) => line.startsWith('  first difference at character '))).toBe(true);
    });
  });

  it.each<[string, { head: string; args?: string[]; code: string }]>([
    ['a missing header', { head: capturedHead(signatureOver()).replace(/X-Nonce: .*\r\n/, ''), code: 'AUTH_HEADER_MISSING' }],
    ['a header sent twice', { head: capturedHead(signatureOver(), ['X-Nonce: n-verify-2']), code: 'AUTH_HEADER_MALFORMED' }],
    ['an upper-case signature', { head: capturedHead(signatureOver().toUpperCase()), code: 'AUTH_HEADER_MALFORMED' }],
    ['a timestamp outside the window of --now', { head: capturedHead(signatureOver()), args: ['--now', String(Number(KEY.timestamp) + 301)], code: 'AUTH_TIMESTAMP_SKEW' }],
    ['a nested body', { head: capturedHead(signatureOver()), args: ['--body-file', 'nested.json'], code: 'NESTED_VALUE' }],
  ])('reports %s with the service code', async (_name, { head, args = ['--body-file', 'body.json'], code }) => {
    const run = await runVerify({ 'head.txt': head, 'body.json': BODY, 'nested.json': '{"a":{"b":1}}' }, ['--headers', 'head.txt', ...args]);
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ valid: false, code });
  });

  it('accepts the window at --now and header lines as curl -v prints them', async () => {
    const head = capturedHead(signatureOver())
      .split('\r\n')
      .map((line) => (line ? `> ${line}` : line))
      .join('\n');
    const { code, result } = await runVerify({ 'head.txt': head, 'body.json': BODY }, ['--headers', 'head.txt', '--body-file', 'body.json', '--now', String(Number(KEY.timestamp) - 300)]);
    expect(code).toBe(0);
    expect(result?.valid).toBe(true);
  });

  it('reads the head up to the first blank line, so a whole captured request can be given', async () => {
    const whole = `\r\n${capturedHead(signatureOver())}\r\n${BODY}`;
    const { code, result } = await runVerify({ 'request.txt': whole, 'body.json': BODY }, ['--headers', 'request.txt', '--body-file', 'body.json']);
    expect(code).toBe(0);
    expect(result?.valid).toBe(true);
  });

  it('takes --header lines, --method and --path instead of a file', async () => {
    const signed = sign({ ...KEY, timestamp: Number(KEY.timestamp), secretKey: SECRET, method: 'GET', path: '/payment/merchant-api/banks', merchantId: 'MCH-1', tenantId: 'TEN-1' });
    const headerArgs = Object.entries(signed.headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]);
    const { code, result } = await runVerify({}, [...headerArgs, '--method', 'GET', '--path', '/payment/merchant-api/banks']);
    expect(code).toBe(0);
    expect(result?.server?.canonicalBody).toBe('');
  });

  it.each<[string, { files?: Record<string, string>; args: string[]; env?: Record<string, string>; want: RegExp }]>([
    ['no secret', { args: ['--headers', 'head.txt'], env: {}, want: /--secret-key is required \(or set PAYSIGN_SECRET_KEY\)/ }],
    ['a file that cannot be read', { args: ['--headers', 'missing.txt'], want: /--headers missing.txt cannot be read/ }],
    ['no request line and no --path', { files: { 'head.txt': 'X-Nonce: n\n' }, args: ['--headers', 'head.txt', '--method', 'GET'], want: /--path \(or a request line in --headers\) is required/ }],
    ['a line that is not a header', { files: { 'head.txt': `POST ${PATH} HTTP/1.1\nnot a header\n` }, args: ['--headers', 'head.txt'], want: /Header line 2 is not "Name: value"/ }],
    ['client values that are not JSON', { files: { 'head.txt': capturedHead(signatureOver()), 'c.json': 'nope' }, args: ['--headers', 'head.txt', '--client-values', 'c.json'], want: /--client-values must be a JSON file/ }],
    ['a --now that is not Unix seconds', { files: { 'head.txt': capturedHead(signatureOver()) }, args: ['--headers', 'head.txt', '--now', '2026-01-01'], want: /--now must be Unix epoch seconds/ }],
  ])('exits 2 on %s', async (_name, { files = { 'head.txt': capturedHead(signatureOver()) }, args, env, want }) => {
    const { code, err } = await runVerify(files, args, env);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(want);
  });
});
