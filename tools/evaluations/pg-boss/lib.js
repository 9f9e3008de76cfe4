// Shared helpers: PGlite adapters for pg-boss 10's `db` option ({ executeSql(text, values) => {rows} })
const { PGlite } = require('@electric-sql/pglite')
const PgBoss = require('pg-boss')
const pg = require('pg')

const PG_URL = process.env.PG_URL || 'postgres://postgres@127.0.0.1:5432/pgboss_eval'

// naive adapter: everything through db.query (extended protocol)
function naivePgliteAdapter (db) {
  return { async executeSql (text, values) { return db.query(text, values) } }
}

// working adapter: pg-boss sends multi-statement scripts (BEGIN; SET LOCAL...; advisory lock; DDL; COMMIT)
// with no params -> those must go through db.exec (simple protocol). Return the last result that has rows.
function pgliteAdapter (db, log) {
  return {
    async executeSql (text, values) {
      if (log) log(text, values)
      if ((!values || values.length === 0) && /;\s*\S/.test(text.trim().replace(/;\s*$/, ''))) {
        let results
        try { results = await db.exec(text) } catch (e) {
          // PGlite has ONE session: a failed BEGIN..COMMIT script leaves it in an aborted tx that poisons
          // every later query ("current transaction is aborted"). Roll back before rethrowing.
          // (Only safe on the top-level db, not on a caller's tx object.)
          if (!db.__isTx) await db.exec('ROLLBACK').catch(() => {})
          throw e
        }
        const withRows = results.filter(r => r.rows && r.rows.length)
        return withRows.length ? withRows[withRows.length - 1] : (results[results.length - 1] || { rows: [] })
      }
      return db.query(text, values)
    }
  }
}

// adapter over a PGlite transaction object (tx.query / tx.exec)
function pgliteTxAdapter (tx) { tx.__isTx = true; return pgliteAdapter(tx) }

// adapter over a pg client that is inside BEGIN
function pgClientAdapter (client) {
  return { executeSql: (text, values) => client.query(text, values) }
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

module.exports = { PGlite, PgBoss, pg, PG_URL, naivePgliteAdapter, pgliteAdapter, pgliteTxAdapter, pgClientAdapter, sleep }
