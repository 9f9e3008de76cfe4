// child for 7-kill9.js: claims one job then hangs (to be SIGKILLed)
const { PGlite, PgBoss, PG_URL, pgliteAdapter } = require('./lib')
;(async () => {
  const [mode, q, dataDir] = process.argv.slice(2)
  let boss
  if (mode === 'pg') boss = new PgBoss({ connectionString: PG_URL, supervise: false, schedule: false })
  else {
    const db = await PGlite.create(dataDir)
    boss = new PgBoss({ db: pgliteAdapter(db), supervise: false, schedule: false })
  }
  await boss.start()
  if (mode === 'pglite') { await boss.createQueue(q, { name: q, retryLimit: 3, expireInSeconds: 2 }); await boss.send(q, { webhook: 'k9' }) }
  const [job] = await boss.fetch(q)
  console.log('FETCHED ' + job.id)
  setInterval(() => {}, 1e6) // hang "mid-delivery"
})().catch(e => { console.error('child FATAL', e); process.exit(1) })
