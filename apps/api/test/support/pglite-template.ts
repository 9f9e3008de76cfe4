import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { SCHEMA } from '../../src/schema';
import type { SqlClient } from '../../src/db/sql-client';
import { pgliteClient } from '../../src/db/sql-clients';

/**
 * Creating a PGlite database takes seconds (initdb in WebAssembly); loading a
 * dump of one takes a fraction of that. So the first test to need one creates
 * and migrates a database once, and every test app then opens its own private
 * in-memory copy of it, through the same client code and migrations as the
 * service. The template is keyed by the migrations, so a new one is never
 * served stale.
 */
const TEMPLATE = path.join(os.tmpdir(), `payment-api-pglite-${createHash('sha256').update(JSON.stringify(SCHEMA)).digest('hex').slice(0, 16)}.tar`);

export async function openPgliteFromTemplate(): Promise<SqlClient> {
  if (!fs.existsSync(TEMPLATE)) {
    const db = new PGlite();
    const client = await pgliteClient(db, { migrations: SCHEMA });
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    await client.close();
    // Write then rename, so that a parallel worker never reads half a template.
    const partial = `${TEMPLATE}.${process.pid}.partial`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, TEMPLATE);
  }
  return pgliteClient(new PGlite({ loadDataDir: new Blob([fs.readFileSync(TEMPLATE)]) }), { migrations: SCHEMA });
}
