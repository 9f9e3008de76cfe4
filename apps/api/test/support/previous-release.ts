import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../../../..');
const SCHEMA_FILE = 'apps/api/src/schema.ts';

/** Where built previous releases are kept between runs, one deployable folder per commit. */
const RELEASE_CACHE = path.join(os.tmpdir(), 'paysign-previous-releases');

/**
 * Installing the monorepo, building, then installing the deployable folder:
 * about two minutes on a cold npm cache and an idle machine. CI builds it
 * while other suites load both cores, and once took more than five minutes.
 */
export const PREVIOUS_RELEASE_BUILD_TIMEOUT_MS = 600_000;

export interface PreviousRelease {
  commit: string;
  /** Why this commit is the previous release, for the test's name and its failures. */
  chosenAs: string;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
/** The command's output, or undefined where git fails (a revision not in this clone). */
const attempt = (command: () => string) => {
  try {
    return command() || undefined;
  } catch {
    return undefined;
  }
};
const commitExists = (revision: string) => attempt(() => git('rev-parse', '--verify', '--quiet', `${revision}^{commit}`));

/**
 * The ordered list of migrations in `schema.ts` at `commit`, whitespace aside,
 * so that an edit to its comments is no change of schema; the whole file where
 * the list cannot be found, and undefined where the file is not there.
 */
function migrationList(commit: string): string | undefined {
  const source = attempt(() => git('show', `${commit}:${SCHEMA_FILE}`));
  if (source === undefined) return undefined;
  return (/\bSCHEMA\b[^=]*=\s*\[([^\]]*)\]/.exec(source)?.[1] ?? source).replace(/\s+/g, '');
}

/**
 * The release before this one. There are no release tags: on a branch that
 * has left main, main as it was where the branch left it; on main, the newest
 * commit whose list of migrations differs from this one's, which is the
 * parent of the commit that made the list what it is now.
 */
export function findPreviousRelease(): PreviousRelease | { missing: string } {
  if (!commitExists('HEAD')) return { missing: `${root} is not a git checkout with history` };
  const head = git('rev-parse', 'HEAD');
  const main = commitExists('main') ?? commitExists('origin/main');
  const mergeBase = main ? attempt(() => git('merge-base', 'HEAD', main)) : undefined;
  if (mergeBase && mergeBase !== head) return { commit: mergeBase, chosenAs: `the merge base with main, ${mergeBase.slice(0, 10)}` };
  const current = migrationList(head);
  const changes = (attempt(() => git('log', '--format=%H', 'HEAD', '--', SCHEMA_FILE)) ?? '').split('\n').filter(Boolean);
  for (const change of changes) {
    const parent = commitExists(`${change}^`);
    if (!parent) {
      const shallow = attempt(() => git('rev-parse', '--is-shallow-repository')) === 'true';
      return {
        missing: shallow
          ? `this clone is shallow, so the parent of ${change.slice(0, 10)} (a change to ${SCHEMA_FILE}) is not in it: run \`git fetch --unshallow\`, or clone without --depth`
          : `no commit before ${change.slice(0, 10)}, the first change to ${SCHEMA_FILE}, has an older list of migrations`,
      };
    }
    if (migrationList(parent) !== current) return { commit: parent, chosenAs: `${parent.slice(0, 10)}, the last commit with an older list of migrations` };
  }
  return { missing: `no commit that changed ${SCHEMA_FILE} is in this clone` };
}

/**
 * `describe` for a suite that runs the previous release. Where its commit is
 * not in the clone (a shallow clone), the suite is skipped, loudly, on a
 * developer's machine; under CI=true it fails, as a store test does.
 */
export function describeWithPreviousRelease(name: string, suite: (release: PreviousRelease) => void): void {
  const release = findPreviousRelease();
  if ('commit' in release) {
    describe(`${name} (previous release: ${release.chosenAs})`, () => suite(release));
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs the previous release in the git history', () => {
        throw new Error(`The previous release cannot be found: ${release.missing}. Under CI=true an upgrade test fails instead of skipping.`);
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": the previous release cannot be found: ${release.missing}.`);
    describe.skip(name, () => undefined);
  }
}

/**
 * The previous release's deployable folder, as `npm run deploy:build` made it
 * at that commit and an operator installs it (`npm ci --omit=dev`). Built
 * once per commit and kept under the temporary directory: a rerun starts at once.
 */
export async function buildPreviousRelease(release: PreviousRelease): Promise<string> {
  const folder = path.join(RELEASE_CACHE, release.commit);
  if (fs.existsSync(path.join(folder, 'node_modules'))) return folder;
  fs.mkdirSync(RELEASE_CACHE, { recursive: true });
  // Built aside and renamed into place when complete, so that an interrupted build is never taken for a release.
  const scratch = fs.mkdtempSync(path.join(RELEASE_CACHE, `${release.commit}.building-`));
  const run = promisify(execFile);
  const step = async (command: string, args: string[], cwd: string) => {
    // The build's own Nx, not this run's daemon or cloud; NODE_ENV=test from jest would change what npm installs.
    const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NODE_ENV: undefined };
    await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`Building the previous release ${release.commit}: \`${command} ${args.join(' ')}\` failed in ${cwd}:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
    });
  };
  try {
    const source = path.join(scratch, 'source');
    const deployable = path.join(scratch, 'release');
    fs.mkdirSync(source);
    await step('git', ['archive', '--format=tar', `--output=${path.join(scratch, 'source.tar')}`, release.commit], root);
    await step('tar', ['-xf', path.join(scratch, 'source.tar'), '-C', source], scratch);
    await step('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], source);
    await step(process.execPath, ['tools/scripts/deploy-build.js', '--out', deployable], source);
    await step('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], deployable);
    try {
      fs.renameSync(deployable, folder);
    } catch (error) {
      // Another run built the same commit first: theirs is as good.
      if (!fs.existsSync(path.join(folder, 'node_modules'))) throw error;
    }
    return folder;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
