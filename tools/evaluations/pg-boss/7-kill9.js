// Req 7: job claimed by a process that gets SIGKILL -> retried after expiry? (PostgreSQL, and PGlite with a dataDir)
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { PGlite, PgBoss, PG_URL, pgliteAdapter, sleep } = require('./lib')

function runChildAndKill (args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, '7-child.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.on('data', d => {
      const m = /FETCHED (\S+)/.exec(String(d))
      if (m) { console.log(`  child pid ${child.pid} claimed ${m[1]}; sending SIGKILL`); process.kill(child.pid, 'SIGKILL') }
    })
    child.on('exit', (code, signal) => { console.log(`  child exited code=${code} signal=${signal}`); resolve() })
    child.on('error', reject)
  })
}

async function waitForRetry (label, boss, q) {
  const t0 = Date.now()
  for (;;) {
    const [j] = await boss.fetch(q, { includeMetadata: true })
    if (j) { console.log(`${label} job ${j.id} re-fetched ${Date.now() - t0} ms after restart; retryCount=${j.retryCount}, output of expiry=${JSON.stringify((await boss.getJobById(q, j.id)).output)}`); return }
    if (Date.now() - t0 > 20000) { console.log(label, 'NOT re-fetched within 20s'); return }
    await sleep(250)
  }
}

;(async () => {
  // PostgreSQL
  const q = 'k9-' + Date.now().toString(36)
  const boss = new PgBoss({ connectionString: PG_URL, maintenanceIntervalSeconds: 1, schedule: false })
  await boss.start(); await boss.createQueue(q, { name: q, retryLimit: 3, expireInSeconds: 2 })
  await boss.send(q, { webhook: 'k9' })
  await boss.stop({ graceful: false, wait: true }) // no supervisor alive while child runs
  await runChildAndKill(['pg', q])
  const boss2 = new PgBoss({ connectionString: PG_URL, maintenanceIntervalSeconds: 1, schedule: false })
  await boss2.start()
  await waitForRetry('[postgres]', boss2, q)
  await boss2.stop({ graceful: false, wait: true })

  // PGlite on disk: the child IS the database process, so kill -9 kills the DB too
  const dataDir = path.join(__dirname, 'pglite-k9-data'); fs.rmSync(dataDir, { recursive: true, force: true })
  await runChildAndKill(['pglite', 'k9', dataDir])
  let db
  try { db = await PGlite.create(dataDir) } catch (e) { console.log('[pglite] reopen after SIGKILL FAILED:', e.message); return }
  const boss3 = new PgBoss({ db: pgliteAdapter(db), maintenanceIntervalSeconds: 1, schedule: false })
  boss3.on('error', e => console.log('[pglite] boss error:', e.message))
  await boss3.start()
  console.log('[pglite] reopened dataDir after SIGKILL; job rows:', JSON.stringify((await db.query("select state, retry_count from pgboss.job where name='k9'")).rows))
  await waitForRetry('[pglite]  ', boss3, 'k9')
  await boss3.stop({ graceful: false, wait: true }); await db.close()
})().catch(e => { console.error('FATAL', e); process.exit(1) })
