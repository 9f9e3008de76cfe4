// npm run check:contract-breaking [-- --base <git-ref>]
// Compares openapi/payment-api.yaml with its version at the last SDK release
// tag (sdk@x.y.z), or at the merge base with main when there is none, and
// fails naming each change that would break an integrated merchant. Breaking
// changes need a new major version of the SDK and a documented migration.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { breakingChanges, type OpenApiDocument } from './breaking-changes';

const root = path.resolve(__dirname, '../..');
const CONTRACT = 'openapi/payment-api.yaml';
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function baseRef(): { ref: string; why: string } {
  const { values } = parseArgs({ options: { base: { type: 'string' } } });
  if (values.base) return { ref: values.base, why: 'given with --base' };
  try {
    const tag = git('describe', '--tags', '--abbrev=0', '--match', 'sdk@*');
    return { ref: tag, why: 'the last SDK release tag' };
  } catch {
    const branch = ['main', 'origin/main'].find((candidate) => {
      try {
        git('rev-parse', '--verify', '--quiet', candidate);
        return true;
      } catch {
        return false;
      }
    });
    if (!branch) throw new Error('No sdk@* tag and no main branch to compare with: pass --base <git-ref>.');
    return { ref: git('merge-base', 'HEAD', branch), why: `the merge base with ${branch} (no SDK release tag yet)` };
  }
}

const { ref, why } = baseRef();
let baseText: string;
try {
  baseText = git('show', `${ref}:${CONTRACT}`);
} catch {
  console.log(`${CONTRACT} does not exist at ${ref}: nothing to break.`);
  process.exit(0);
}
const found = breakingChanges(parse(baseText) as OpenApiDocument, parse(fs.readFileSync(path.join(root, CONTRACT), 'utf8')) as OpenApiDocument);
if (found.length === 0) {
  console.log(`No breaking change to ${CONTRACT} since ${ref} (${why}).`);
  process.exit(0);
}
console.error(`${found.length} breaking change${found.length === 1 ? '' : 's'} to ${CONTRACT} since ${ref} (${why}):`);
for (const change of found) console.error(`- ${change}`);
console.error('A breaking change needs a new major version of the SDK and a documented migration; make it additive if you can.');
process.exit(1);
