// docs/protocol.md quotes hashes and signatures; each must be one that the
// published vectors (computed by the reference implementation) contain.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIGNING_VECTORS } from '@paysign/signing/testing';

const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/protocol.md'), 'utf8');

describe('docs/protocol.md', () => {
  const quoted = [...new Set(doc.match(/\b[0-9a-f]{64}\b/g) ?? [])];
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
});
