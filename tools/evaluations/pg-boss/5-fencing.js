// Req 5: is a late complete() from an expired attempt fenced? (PostgreSQL and PGlite)
// Expiry in pg-boss 10 happens ONLY in maintenance (failJobsByTimeout); we let the built-in
// supervisor run every 1s (maintenanceIntervalSeconds: 1) rather than calling internals.
const { PGlite, PgBoss, PG_URL, pgliteAdapter, sleep } = require('./lib')

async function scenario (label, boss) {
  boss.on('error', e => console.log(label, 'boss error event:', e.message))
  await boss.start()
  const q = 'fence-' + Date.now().toString(36)
  await boss.createQueue(q, { name: q, retryLimit: 3, retryDelay: 0, expireInSeconds: 1 })
  const id = await boss.send(q, { webhook: 1 })
  const [first] = await boss.fetch(q)                    // worker 1 claims
  console.log(label, 'worker1 fetched', first.id)
  let second
  for (let t = 0; t < 40 && !second; t++) { await sleep(250); [second] = await boss.fetch(q) } // wait: expire -> retry -> worker 2 claims
  const j2 = await boss.getJobById(q, id)
  console.log(label, `worker2 fetched ${second?.id} (same id: ${second?.id === first.id}); state=${j2.state} retryCount=${j2.retryCount}`)
  const late = await boss.complete(q, first.id, { by: 'worker1-LATE' })   // worker 1's stale handle (just the id)
  let j = await boss.getJobById(q, id)
  console.log(label, `worker1 late complete -> affected=${late.affected}; state=${j.state} output=${JSON.stringify(j.output)}`)
  const real = await boss.complete(q, second.id, { by: 'worker2' })
  j = await boss.getJobById(q, id)
  console.log(label, `worker2 complete     -> affected=${real.affected}; state=${j.state} output=${JSON.stringify(j.output)}`)

  // variant: stale fail() from worker 1 while worker 2 holds the retry
  const id2 = await boss.send(q, { webhook: 2 })
  const [a] = await boss.fetch(q); let b
  for (let t = 0; t < 40 && !b; t++) { await sleep(250); [b] = await boss.fetch(q) }
  const f = await boss.fail(q, a.id, new Error('worker1 timed out late'))
  const jj = await boss.getJobById(q, id2)
  console.log(label, `variant: worker1 late fail() while worker2 active -> affected=${f.affected}; state=${jj.state} retryCount=${jj.retryCount} (worker2's attempt is now orphaned; job will be handed out again)`)
  await boss.stop({ graceful: false, wait: true })
}

;(async () => {
  await scenario('[postgres]', new PgBoss({ connectionString: PG_URL, maintenanceIntervalSeconds: 1, schedule: false }))
  const db = await PGlite.create()
  await scenario('[pglite]  ', new PgBoss({ db: pgliteAdapter(db), maintenanceIntervalSeconds: 1, schedule: false }))
  await db.close()
})().catch(e => { console.error('FATAL', e); process.exit(1) })
