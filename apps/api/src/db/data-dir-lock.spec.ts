import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

/** A pid no process has: above the kernel's pid_max. */
const NO_SUCH_PID = 4_194_305;

describe('the embedded database lock in DATA_DIR', () => {
  let dir: string;
  const lockPath = () => path.join(dir, 'payins.pglite.lock');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is taken whole, naming this process and host, refused to a second taker, and removed on release', () => {
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    release();
    expect(fs.existsSync(lockPath())).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    lockDataDir(dir)();
  });

  it('takes over the lock of a process of this host that no longer runs', () => {
    fs.writeFileSync(lockPath(), `${NO_SUCH_PID} ${os.hostname()}\n`);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    release();
  });

  it("refuses the lock of a live process, and of another host's process until its lock goes a minute untouched", () => {
    fs.writeFileSync(lockPath(), `1 ${os.hostname()}\n`);
    if (process.pid !== 1) expect(() => lockDataDir(dir)).toThrow(`is in use by process 1 on ${os.hostname()}`);
    fs.writeFileSync(lockPath(), '77 another-host\n');
    expect(() => lockDataDir(dir)).toThrow('is in use by process 77 on another-host');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    fs.utimesSync(lockPath(), twoMinutesAgo, twoMinutesAgo);
    lockDataDir(dir)();
  });

  it('refuses a lock it cannot read as a holder, rather than guess it abandoned', () => {
    fs.writeFileSync(lockPath(), '');
    expect(() => lockDataDir(dir)).toThrow('its lock cannot be read');
    expect(fs.readFileSync(lockPath(), 'utf8')).toBe('');
  });
});
