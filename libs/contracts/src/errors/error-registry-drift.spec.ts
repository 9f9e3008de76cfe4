// Proves the registry cannot fall behind the contract: in a scratch copy, a code
// added to the YAML's ErrorCode enum without a registry entry fails typecheck.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { parse, stringify } from 'yaml';

const root = path.resolve(__dirname, '../../../..');
const NEW_CODE = 'PAYOUT_LIMIT_REACHED';

/** Generates the types from `contract` into a scratch copy of the library and typechecks the registry there. */
function typecheckRegistryAgainst(contract: string): string[] {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-drift-'));
  try {
    const src = path.join(scratch, 'src');
    fs.mkdirSync(path.join(src, 'generated'), { recursive: true });
    fs.mkdirSync(path.join(src, 'errors'));
    fs.writeFileSync(path.join(scratch, 'payment-api.yaml'), contract);
    execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [path.join(scratch, 'payment-api.yaml'), '--output', path.join(src, 'generated/payment-api.ts')], { stdio: 'ignore' });
    fs.writeFileSync(path.join(src, 'generated/schemas.ts'), `export const SCHEMAS = ${JSON.stringify((parse(contract) as { components: { schemas: unknown } }).components.schemas)} as const;\n`);
    fs.copyFileSync(path.join(__dirname, '../schemas.ts'), path.join(src, 'schemas.ts'));
    fs.copyFileSync(path.join(__dirname, 'error-registry.ts'), path.join(src, 'errors/error-registry.ts'));
    const program = ts.createProgram([path.join(src, 'errors/error-registry.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      skipLibCheck: true,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

describe('the registry against the contract', () => {
  const yaml = fs.readFileSync(path.join(root, 'openapi/payment-api.yaml'), 'utf8');

  it('typechecks against the contract as it is', () => {
    expect(typecheckRegistryAgainst(yaml)).toEqual([]);
  });

  it(`fails typecheck when the contract gains ${NEW_CODE} and the registry does not`, () => {
    const contract = parse(yaml) as { components: { schemas: { ErrorCode: { enum: string[] } } } };
    contract.components.schemas.ErrorCode.enum.push(NEW_CODE);
    const diagnostics = typecheckRegistryAgainst(stringify(contract));
    expect(diagnostics.join('\n')).toContain(NEW_CODE);
  });
});
