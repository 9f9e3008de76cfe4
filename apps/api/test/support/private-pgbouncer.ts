import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from './private-redis';

/** Debian's pgbouncer (.ci/run installs it, in /usr/sbin); PGBOUNCER_PATH names another. */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? (fs.existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer');

export interface PrivatePgBouncerOptions {
  /** The PostgreSQL server it pools, as a URL: its host and port. Every database on it is reachable through it, by name. */
  upstreamUrl: string;
  /** Users it lets in, with trust, as the server does: default `postgres`. */
  users?: readonly string[];
  /** Server connections per database and user (`default_pool_size`): default 5. */
  poolSize?: number;
  /** Client connections it accepts (`max_client_conn`): default 100. */
  maxClientConnections?: number;
}

/**
 * A pgbouncer of the test's own, in transaction pooling mode, on a free
 * loopback port, with its ini and auth file in a temporary folder: the way
 * a deployment puts PgBouncer between the service and PostgreSQL. `stop`
 * ends it and removes the folder.
 */
export class PrivatePgBouncer {
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
  }

  static async start(options: PrivatePgBouncerOptions): Promise<PrivatePgBouncer> {
    const upstream = new URL(options.upstreamUrl);
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
    // pgbouncer refuses to run as root; as root the test has it switch to the server's own user, who must read these files.
    const asUser = process.getuid?.() === 0 ? 'postgres' : undefined;
    fs.chmodSync(dir, 0o755);
    const users = options.users ?? ['postgres'];
    fs.writeFileSync(path.join(dir, 'users.txt'), users.map((user) => `"${user}" ""\n`).join(''), { mode: 0o644 });
    const ini = [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      `max_client_conn = ${options.maxClientConnections ?? 100}`,
      `default_pool_size = ${options.poolSize ?? 5}`,
      'log_connections = 0',
      'log_disconnections = 0',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
    const child = spawn(PGBOUNCER, [...(asUser ? ['-u', asUser] : []), path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const bouncer = new PrivatePgBouncer(port, dir, child);
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`exited with ${code ?? signal}`)));
    const spawnFailed = new Promise<string>((resolve) => child.once('error', (error) => resolve(error.message)));
    for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
      const early = await Promise.race([exited, spawnFailed, canConnect(port).then((up) => (up ? 'up' : undefined))]);
      if (early === 'up') return bouncer;
      if (early !== undefined) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`${PGBOUNCER} did not start: ${early}. ${bouncer.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await bouncer.stop();
    throw new Error(`${PGBOUNCER} did not listen on port ${port} within 5 s. ${bouncer.output}`);
  }

  /** The URL of `database` through this pgbouncer, as `user`. */
  url(database: string, user = 'postgres'): string {
    return `postgres://${user}@127.0.0.1:${this.port}/${database}`;
  }

  /** What it logged so far. */
  get logs(): string {
    return this.output;
  }

  /** Its server connections to `database` now, from its admin console (SHOW SERVERS). */
  async serverConnections(database: string): Promise<number> {
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: this.url('pgbouncer') });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ database: string }>('SHOW SERVERS');
      return rows.filter((row) => row.database === database).length;
    } finally {
      await admin.end();
    }
  }

  /** Ends it at once (SIGTERM: every connection closed), and removes its folder. */
  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const installHint = "Install Debian's pgbouncer (apt-get install -y pgbouncer), or set PGBOUNCER_PATH.";

/** `describe` for a suite that runs pgbouncer: skipped loudly without it on a developer's machine, failed under CI=true. */
export function describeWithPgBouncer(name: string, suite: () => void): void {
  if (spawnSync(PGBOUNCER, ['--version'], { stdio: 'ignore' }).status === 0) describe(name, suite);
  else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs pgbouncer', () => {
        throw new Error(`${PGBOUNCER} is missing; under CI=true a PgBouncer test fails instead of skipping. ${installHint}`);
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": ${PGBOUNCER} is missing. ${installHint}`);
    describe.skip(name, suite);
  }
}
