// Req 3: enqueue inside the caller's own transaction (send(name, data, { db: txAdapter })).
const { PGlite, PgBoss, pg, PG_URL, pgliteAdapter, pgClientAdapter } = require('./lib')

async function countJobs (exec, id) { return Number((await exec('select count(*)::int c from pgboss.job where id = $1', [id])).rows[0].c) }

async function onPostgres () {
  const pool = new pg.Pool({ connectionString: PG_URL })
  const boss = new PgBoss({ connectionString: PG_URL, supervise: false, schedule: false })
  await boss.start(); await boss.createQueue('webhooks')
  await pool.query('create table if not exists payments (id serial primary key, note text)')
  for (const outcome of ['ROLLBACK', 'COMMIT']) {
    const client = await pool.connect()
    await client.query('BEGIN')
    await client.query('insert into payments(note) values ($1)', [outcome])
    const id = await boss.send('webhooks', { outcome }, { db: pgClientAdapter(client) })
    const visibleOutside = await countJobs((t, v) => pool.query(t, v), id)
    await client.query(outcome); client.release()
    const after = await countJobs((t, v) => pool.query(t, v), id)
    console.log(`[postgres] send in tx -> id ${id}; visible to other conn before ${outcome}: ${visibleOutside}; rows after ${outcome}: ${after}`)
  }
  await boss.stop({ graceful: false, wait: true }); await pool.end()
}

async function onPglite () {
  const db = await PGlite.create()
  const boss = new PgBoss({ db: pgliteAdapter(db), supervise: false, schedule: false })
  await boss.start(); await boss.createQueue('webhooks')
  await db.exec('create table payments (id serial primary key, note text)')
  let rbId
  try {
    await db.transaction(async tx => {
      await tx.query('insert into payments(note) values ($1)', ['rollback'])
      rbId = await boss.send('webhooks', { outcome: 'rollback' }, { db: pgliteAdapter(tx) })
      throw new Error('business failure after enqueue')
    })
  } catch { /* expected */ }
  console.log(`[pglite] send in tx then throw -> id ${rbId}; rows after rollback: ${await countJobs((t, v) => db.query(t, v), rbId)}; payments: ${(await db.query('select count(*)::int c from payments')).rows[0].c}`)
  let okId
  await db.transaction(async tx => {
    await tx.query('insert into payments(note) values ($1)', ['commit'])
    okId = await boss.send('webhooks', { outcome: 'commit' }, { db: pgliteAdapter(tx) })
  })
  console.log(`[pglite] send in tx then commit -> id ${okId}; rows after commit: ${await countJobs((t, v) => db.query(t, v), okId)}`)
  await boss.stop({ graceful: false, wait: true }); await db.close()
}

;(async () => { await onPostgres(); await onPglite() })().catch(e => { console.error('FATAL', e); process.exit(1) })
