// docs/protocol.md quotes hashes and signatures; each must be one that the
// published vectors (computed by the reference implementation) contain.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIGNING_VECTORS } from '@paysign/signing/testing';
import { parse } from 'yaml';

const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/protocol.md'), 'utf8');

/** Section 8's copy-and-paste examples: each paysign curl command and the curl line it printed. */
const endpointsSection = doc.slice(doc.indexOf('## 8.'), doc.indexOf('## 9.'));
const curlExamples = [...endpointsSection.matchAll(/```sh\n(npm run -s paysign -- curl [^\n]+)\n```\n\n```\n(curl [^\n]+)\n```/g)].map(([, command, printed]) => ({ command: command as string, printed: printed as string }));

describe('docs/protocol.md', () => {
  // Signatures in section 8's curl lines are checked by running their commands, below; every other one must be a vector's.
  const quoted = [...new Set(doc.replace(endpointsSection, '').match(/\b[0-9a-f]{64}\b/g) ?? [])];
  const known = new Set(SIGNING_VECTORS.flatMap((v) => [v.want.bodySha256Hex, v.want.signature]));

  it.each(SIGNING_VECTORS.filter((v) => ['get-without-body', 'every-payin-field'].includes(v.name)).map((v) => [v.name, v] as const))(
    'quotes the body hash and signature of vector %s, its worked examples',
    (_name, vector) => {
      expect(quoted).toEqual(expect.arrayContaining([vector.want.bodySha256Hex, vector.want.signature]));
    },
  );

  it.each(quoted)('quotes %s from the vectors', (hex) => {
    expect(known.has(hex)).toBe(true);
  });

  it.each(SIGNING_VECTORS.filter((v) => ['every-payin-field', 'key-order-utf16', 'amount-1000.50'].includes(v.name)).map((v) => [v.name, v] as const))(
    'gives the canonical body of vector %s as computed',
    (_name, vector) => {
      expect(doc).toContain(vector.want.canonicalBody);
    },
  );

  describe('where each rule is tested', () => {
    const rows = [...doc.matchAll(/^\| [^|]+ \| `([^`]+\.spec\.ts)` \| `([^`]+)` \|$/gm)].map(([, file, title]) => ({ file: file as string, title: title as string }));

    it('names a spec file for every check of section 4', () => {
      for (const code of ['AUTH_HEADER_MISSING', 'AUTH_UNKNOWN_API_KEY', 'AUTH_TIMESTAMP_SKEW', 'AUTH_SIGNATURE_MISMATCH', 'AUTH_NONCE_REPLAYED', 'AUTH_MERCHANT_MISMATCH']) {
        expect(doc).toContain(code);
      }
      expect(rows.map((r) => r.file)).toEqual(expect.arrayContaining(['libs/signing/src/verify.spec.ts', 'apps/api/test/auth.e2e.spec.ts', 'apps/api/test/replay-race.e2e.spec.ts', 'apps/api/test/stores-down.e2e.spec.ts']));
    });

    it.each(rows.map((r) => [`${r.file}: ${r.title}`, r] as const))('%s exists', (_name, { file, title }) => {
      const spec = fs.readFileSync(path.resolve(__dirname, '../..', file), 'utf8');
      expect(spec).toContain(title);
    });
  });

  it('gives a section 6 command that runs as written in a clone and reproduces its vector', () => {
    const section = doc.slice(doc.indexOf('## 6.'), doc.indexOf('## 7.'));
    const command = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(command).toContain('npm run -s paysign -- sign');
    const output = execFileSync('bash', ['-c', command], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' }).trim().split('\n').pop() ?? '';
    const vector = SIGNING_VECTORS.find((v) => v.name === 'amount-1000.50');
    expect(JSON.parse(output)).toMatchObject({ signature: vector?.want.signature });
  });

  describe('section 8, the endpoints', () => {
    const contract = parse(fs.readFileSync(path.resolve(__dirname, '../../openapi/payment-api.yaml'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(contract.paths).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => [method.toUpperCase(), template] as const),
    );

    it.each(operations)('lists %s %s, the contract\'s operation', (method, template) => {
      const rows = endpointsSection.split('\n').filter((line) => line.startsWith('| ') && line.includes(`\`${template}\``));
      expect(rows.some((row) => row.split('|')[1]?.includes(method))).toBe(true);
    });

    it('gives a paysign curl example for every signed operation', () => {
      const signed = operations.filter(([, template]) => template.startsWith('/payment/api') || template.startsWith('/payment/merchant-api'));
      for (const [method, template] of signed) {
        const pattern = new RegExp(`--method ${method} --path '?${template.replace(/\{[^}]+\}/g, '[^/?\' ]+').replace(/[.]/g, '\\.')}([?'][^ ]*)? `);
        expect(curlExamples.map((e) => e.command).some((command) => pattern.test(`${command} `))).toBe(true);
      }
    });

    it('gives the same example in the API reference, as the operation\'s x-codeSamples', () => {
      const document = contract as unknown as { paths: Record<string, Record<string, { 'x-codeSamples'?: Array<{ label: string; source: string }> }>> };
      const signed = operations.filter(([, template]) => template.startsWith('/payment/api') || template.startsWith('/payment/merchant-api'));
      for (const [method, template] of signed) {
        const source = document.paths[template]?.[method.toLowerCase()]?.['x-codeSamples']?.find((sample) => sample.label === 'paysign curl')?.source ?? '';
        const example = curlExamples.find((e) => source.includes(e.command));
        expect({ operation: `${method} ${template}`, found: example !== undefined }).toEqual({ operation: `${method} ${template}`, found: true });
        expect(source).toContain(example?.printed);
      }
    });

    it('prints each curl line exactly as the command prints it', () => {
      const env = 'export PAYSIGN_API_KEY=pk_sandbox_demo PAYSIGN_SECRET_KEY=sk_sandbox_demo_public_not_secret PAYSIGN_MERCHANT_ID=MCH-SANDBOX-0001 PAYSIGN_TENANT_ID=TEN-SANDBOX';
      const script = [env, ...curlExamples.map((e) => e.command)].join('\n');
      const printed = execFileSync('bash', ['-c', script], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' }).trim().split('\n');
      expect(curlExamples.length).toBeGreaterThanOrEqual(8);
      expect(printed).toEqual(curlExamples.map((e) => e.printed));
    }, 60_000);
  });

  it('explains every 401 code in the troubleshooting table', () => {
    const table = doc.slice(doc.indexOf('## 9.'), doc.indexOf('## 10.'));
    for (const code of ['AUTH_HEADER_MISSING', 'AUTH_HEADER_MALFORMED', 'AUTH_UNKNOWN_API_KEY', 'AUTH_TIMESTAMP_SKEW', 'AUTH_SIGNATURE_MISMATCH', 'AUTH_NONCE_REPLAYED', 'AUTH_MERCHANT_MISMATCH']) {
      expect(table).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
    }
  });

  it('keeps numbers as sent in Python, Java, Go, C#, PHP and JavaScript', () => {
    const section = doc.slice(doc.indexOf('## 7.'), doc.indexOf('## 8.'));
    for (const language of ['Python', 'Java', 'Go', 'C#', 'PHP', 'JavaScript']) expect(section).toMatch(new RegExp(`^\\| ${language.replace('#', '\\#')} \\|`, 'm'));
  });
});
