import { execFileSync } from 'node:child_process';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
export const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A TCP connect, run synchronously so that suites can decide at load time whether to run. */
export function reachable(url: string): boolean {
  const { hostname, port } = new URL(url);
  const script = `const s=require('net').connect(${Number(port)},${JSON.stringify(hostname)});s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));setTimeout(()=>process.exit(1),2000);`;
  try {
    execFileSync(process.execPath, ['-e', script], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * `describe` for a suite that needs a store. When the store is unreachable the
 * suite is skipped, loudly, on a developer's machine; under CI=true it fails.
 */
export function describeWithStore(store: 'Redis' | 'PostgreSQL', url: string, name: string, suite: () => void): void {
  if (reachable(url)) {
    describe(name, suite);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it(`needs ${store} at ${url}`, () => {
        throw new Error(`${store} is unreachable at ${url}; under CI=true a store test fails instead of skipping. Start ${store} or set ${store === 'Redis' ? 'REDIS_URL' : 'DATABASE_URL'}.`);
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": ${store} is unreachable at ${url}.`);
    describe.skip(name, suite);
  }
}

/** `describe` for a suite in production mode, which needs both Redis and PostgreSQL. */
export function describeInProduction(name: string, suite: () => void): void {
  describeWithStore('Redis', REDIS_URL, name, () => describeWithStore('PostgreSQL', DATABASE_URL, 'on PostgreSQL', suite));
}

/** A database of its own on the shared PostgreSQL server, dropped by `drop()`: suites never see each other's rows. */
export async function createPrivateDatabase(prefix = 'paysign_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Pool } = await import('pg');
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Pool({ connectionString: DATABASE_URL });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * A client on a schema of its own in the shared PostgreSQL database, migrated
 * with `migrations`, and how to drop it: for suites about the SQL layer,
 * which need no database of their own.
 */
export async function openPrivateSchema(prefix: string, migrations: readonly import('../../src/db/migrations').Migration[]): Promise<{ client: import('../../src/db/sql-client').SqlClient; dispose: () => Promise<void> }> {
  const { Pool } = await import('pg');
  const { openPostgres } = await import('../../src/db/sql-clients');
  const schema = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Pool({ connectionString: DATABASE_URL });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const client = await openPostgres(DATABASE_URL, { schema, migrations });
  return {
    client,
    dispose: async () => {
      await client.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}
