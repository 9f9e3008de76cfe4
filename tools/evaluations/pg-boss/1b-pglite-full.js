// Req 1 (part b): pg-boss 10 on PGlite 0.5.16 with a multi-statement-aware adapter.
// Also probes individual SQL features pg-boss uses.
const { PGlite, PgBoss, pgliteAdapter, sleep } = require('./lib')
;(async () => {
  const db = await PGlite.create()
  console.log('PGlite server version:', (await db.query('show server_version')).rows[0].server_version)
  // feature probes
  for (const [label, sql] of [
    ['gen_random_uuid()', 'select gen_random_uuid() as v'],
    ['pg_advisory_xact_lock (in tx)', "begin; select pg_advisory_xact_lock(('x' || encode(sha224('a'::bytea), 'hex'))::bit(64)::bigint); commit"],
    ['partitioned table + attach', 'create table pt (name text, id int) partition by list(name); create table pt_a (like pt); alter table pt attach partition pt_a for values in (\'a\'); insert into pt values (\'a\',1); select count(*) from pt'],
    ['FOR UPDATE SKIP LOCKED', 'select * from pt for update skip locked'],
    ['LISTEN/NOTIFY', 'listen foo; notify foo'],
    ['SET LOCAL lock_timeout / idle_in_transaction_session_timeout', "begin; SET LOCAL lock_timeout = '30s'; SET LOCAL idle_in_transaction_session_timeout = '30s'; commit"],
  ]) {
    try { const r = await db.exec(sql); console.log('probe OK  :', label, JSON.stringify(r[r.length - 1]?.rows?.[0] ?? null)) } catch (e) { console.log('probe FAIL:', label, '->', e.message) }
  }
  const sqlSeen = new Set()
  const boss = new PgBoss({ db: pgliteAdapter(db, (t) => sqlSeen.add(t.trim().split('\n')[0].slice(0, 60))), maintenanceIntervalSeconds: 1 })
  boss.on('error', e => console.log('boss error event:', e.message))
  await boss.start(); console.log('boss.start() OK; schema version', await boss.schemaVersion())
  await boss.createQueue('webhooks'); console.log('createQueue OK (partition created via plpgsql create_queue)')
  const id = await boss.send('webhooks', { merchant: 'm1', n: 1 }); console.log('send ->', id)
  const [job] = await boss.fetch('webhooks'); console.log('fetch ->', job?.id, JSON.stringify(job?.data))
  console.log('complete ->', JSON.stringify(await boss.complete('webhooks', job.id, { ok: true })))
  console.log('getJobById ->', (await boss.getJobById('webhooks', job.id)).state)
  // work()
  const done = []
  await boss.work('webhooks', { pollingIntervalSeconds: 0.5, batchSize: 1 }, async ([j]) => { done.push(j.data.n) })
  for (let n = 2; n <= 4; n++) await boss.send('webhooks', { merchant: 'm1', n })
  await sleep(3000)
  console.log('work() processed:', done)
  // failure + retry + expire via maintenance
  const fid = await boss.send('retryq-x', {}).catch(e => 'send to missing queue -> ' + e.message); console.log(fid)
  await boss.stop({ graceful: false, wait: true })
  await db.close()
  console.log('done')
})().catch(e => { console.error('FATAL', e); process.exit(1) })
