// The generated contracts are made afresh on every run: a hand edit that keeps
// the header is overwritten by the generator and caught by the drift check.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const script = (name: string) => path.join(root, 'tools/scripts', name);

/** A folder generated from the contract as it is, made once: the tests copy it. */
let generated: string;
beforeAll(() => {
  generated = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-'));
  execFileSync(process.execPath, [script('generate-contracts.js'), generated]);
});
afterAll(() => fs.rmSync(generated, { recursive: true, force: true }));

/** A copy of the generated folder with `edit` made to payment-api.ts below its header. */
function editedCopy(edit: (body: string) => string): { dir: string; file: string; fresh: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'generated-'));
  for (const name of fs.readdirSync(generated)) fs.copyFileSync(path.join(generated, name), path.join(dir, name));
  const file = path.join(dir, 'payment-api.ts');
  const fresh = fs.readFileSync(file, 'utf8');
  const headerEnd = fresh.indexOf(' */\n') + 4;
  fs.writeFileSync(file, fresh.slice(0, headerEnd) + edit(fresh.slice(headerEnd)));
  return { dir, file, fresh };
}

const HAND_EDIT = (body: string) => body.replace('narration', 'memo');

describe('generate-contracts.js (npm run generate)', () => {
  let copy: ReturnType<typeof editedCopy>;
  afterEach(() => fs.rmSync(copy.dir, { recursive: true, force: true }));

  it('overwrites a hand edit that kept the header, naming the file and the first line that differed', () => {
    copy = editedCopy(HAND_EDIT);
    expect(fs.readFileSync(copy.file, 'utf8')).not.toBe(copy.fresh);
    const said = execFileSync(process.execPath, [script('generate-contracts.js'), copy.dir], { encoding: 'utf8' });
    expect(fs.readFileSync(copy.file, 'utf8')).toBe(copy.fresh);
    expect(said).toMatch(/regenerated from openapi\/: payment-api\.ts differs from line \d+\./);
  });

  it('leaves files that already match untouched, their modification time included', () => {
    copy = editedCopy((body) => body);
    const schemas = path.join(copy.dir, 'schemas.ts');
    const past = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(schemas, past, past);
    const said = execFileSync(process.execPath, [script('generate-contracts.js'), copy.dir], { encoding: 'utf8' });
    expect(said).toMatch(/matches openapi\/; nothing to write\./);
    expect(fs.statSync(schemas).mtime).toEqual(past);
  });

  it('removes a generated file the contract no longer makes, and never a file written by hand', () => {
    copy = editedCopy((body) => body);
    const stale = path.join(copy.dir, 'old-output.ts');
    const byHand = path.join(copy.dir, 'index.ts');
    fs.writeFileSync(stale, fs.readFileSync(path.join(copy.dir, 'schemas.ts'), 'utf8'));
    fs.writeFileSync(byHand, "export { SCHEMAS } from './schemas';\n");
    execFileSync(process.execPath, [script('generate-contracts.js'), copy.dir], { encoding: 'utf8' });
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.readFileSync(byHand, 'utf8')).toBe("export { SCHEMAS } from './schemas';\n");
  });
});

describe('check-contract-drift.js (npm run check:contract-drift)', () => {
  let copy: ReturnType<typeof editedCopy>;
  afterEach(() => fs.rmSync(copy.dir, { recursive: true, force: true }));

  it('fails on an edit that keeps the header, and says to run npm run generate', () => {
    copy = editedCopy(HAND_EDIT);
    const run = spawnSync(process.execPath, [script('check-contract-drift.js'), copy.dir], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/payment-api\.ts differs from line \d+\. Run `npm run generate`/);
  });

  it('passes a folder as the generator wrote it', () => {
    copy = editedCopy((body) => body);
    const run = spawnSync(process.execPath, [script('check-contract-drift.js'), copy.dir], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
