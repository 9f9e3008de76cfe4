// Req 4: per-merchant fairness / in-flight cap in pg-boss 10 (PostgreSQL).
const { PgBoss, PG_URL, sleep } = require('./lib')
;(async () => {
  const boss = new PgBoss({ connectionString: PG_URL, supervise: false, schedule: false })
  boss.on('error', e => console.log('boss error event:', e.message))
  await boss.start()
  const run = Date.now().toString(36) // unique queue names per run (deleteQueue refuses queues that still hold jobs)
  const Q = n => `${n}-${run}`

  // (a) standard queue, FIFO: 50 jobs of merchant A then 1 of B. 4 "workers" each claim 1 and get stuck.
  await boss.deleteQueue(Q('fair-std')).catch(() => {}); await boss.createQueue(Q('fair-std'))
  for (let i = 0; i < 50; i++) await boss.send(Q('fair-std'), { m: 'A', i })
  await boss.send(Q('fair-std'), { m: 'B' })
  const claimed = []
  for (let w = 0; w < 4; w++) claimed.push(...(await boss.fetch(Q('fair-std'))))
  console.log('(a) standard: 4 workers claim ->', claimed.map(j => j.data.m).join(','), '(B waits behind all 50 A jobs)')
  let n = 4; for (;;) { const [j] = await boss.fetch(Q('fair-std')); n++; if (!j || j.data.m === 'B') break }
  console.log('(a) standard: B is claimed at claim #' + n, '(strict FIFO by priority, created_on; no per-key cap)')

  // (b) singleton policy + singletonKey = merchant: "max 1 active per key"
  await boss.deleteQueue(Q('fair-single')).catch(() => {}); await boss.createQueue(Q('fair-single'), { name: Q('fair-single'), policy: 'singleton' })
  for (let i = 0; i < 5; i++) await boss.send(Q('fair-single'), { m: 'A', i }, { singletonKey: 'A' })
  await boss.send(Q('fair-single'), { m: 'B' }, { singletonKey: 'B' })
  for (let k = 1; k <= 3; k++) {
    try {
      const jobs = await boss.fetch(Q('fair-single'), { batchSize: 1 })
      console.log(`(b) singleton fetch #${k} batchSize=1 ->`, jobs.map(j => j.data.m + (j.data.i ?? '')).join(',') || '(nothing)')
    } catch (e) { console.log(`(b) singleton fetch #${k} batchSize=1 ERROR:`, e.message) }
  }
  try { // run pg-boss's own fetch SQL directly to see what fetch() swallows
    await boss.getDb().executeSql(require('pg-boss/src/plans').fetchNextJob('pgboss')({}), [Q('fair-single'), 1])
  } catch (e) { console.log('(b) raw fetch SQL error that boss.fetch() swallows (manager.js try/catch):', e.message) }
  try {
    const jobs = await boss.fetch(Q('fair-single'), { batchSize: 10 })
    console.log('(b) singleton fetch batchSize=10 ->', jobs.map(j => j.data.m + (j.data.i ?? '')).join(',') || '(nothing)')
  } catch (e) { console.log('(b) singleton fetch batchSize=10 ERROR:', e.message) }

  // (c) stately policy: at most 1 queued + 1 active per key -> extra sends are DROPPED (return null)
  await boss.deleteQueue(Q('fair-stately')).catch(() => {}); await boss.createQueue(Q('fair-stately'), { name: Q('fair-stately'), policy: 'stately' })
  const ids = []; for (let i = 0; i < 3; i++) ids.push(await boss.send(Q('fair-stately'), { i }, { singletonKey: 'A' }))
  console.log('(c) stately: 3 sends for same merchant ->', ids.map(x => x ? 'id' : 'null').join(','))

  // (d) one queue per merchant: cost of creating M queues (each = partition table + 5 indexes + 2 FKs)
  const M = 200; const t0 = Date.now()
  for (let m = 0; m < M; m++) await boss.createQueue('merchant-' + run + '-' + m)
  const ms = Date.now() - t0
  const rel = await boss.getDb().executeSql("select count(*) filter (where relkind='r') t, count(*) filter (where relkind='i') i from pg_class c join pg_namespace n on n.oid=c.relnamespace where nspname='pgboss'")
  console.log(`(d) createQueue x${M}: ${ms} ms; pgboss schema now has ${rel.rows[0].t} tables, ${rel.rows[0].i} indexes`)
  // polling cost: work() = 1 polling loop per queue per process
  let polls = 0; const db = boss.getDb(); const orig = db.executeSql.bind(db)
  db.executeSql = (t, v) => { if (/WITH next as/.test(t)) polls++; return orig(t, v) }
  for (let m = 0; m < M; m++) await boss.work('merchant-' + run + '-' + m, { pollingIntervalSeconds: 2 }, async () => {})
  await sleep(4100)
  console.log(`(d) ${M} idle work() loops, pollingIntervalSeconds=2: ${polls} fetch queries in ~4s (~${Math.round(polls / 4)}/s per process)`)
  for (let m = 0; m < M; m++) await boss.offWork('merchant-' + run + '-' + m)
  for (let m = 0; m < M; m++) await boss.deleteQueue('merchant-' + run + '-' + m)
  await boss.stop({ graceful: false, wait: true })
})().catch(e => { console.error('FATAL', e); process.exit(1) })
