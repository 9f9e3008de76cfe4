#!/bin/sh
# Re-runs the evaluation of pg-boss 10 against the webhook queue's requirements
# (see CONTRIBUTING.md, "Why the webhook queue is our own"). pg-boss is not a
# dependency of the project: it is installed in a temporary folder of its own.
# Creates and drops its own database, pgboss_eval, on the local PostgreSQL.
set -e
cd "$(dirname "$0")"
modules="$(mktemp -d)"
npm install --prefix "$modules" --no-save --no-package-lock --no-audit --no-fund pg-boss@10.4.2 @electric-sql/pglite@0.5.16 pg >/dev/null
export NODE_PATH="$modules/node_modules"
export PG_URL="${PG_URL:-postgres://postgres@127.0.0.1:5432/pgboss_eval}"
createdb -h 127.0.0.1 -U postgres pgboss_eval
trap 'dropdb -h 127.0.0.1 -U postgres --if-exists pgboss_eval; rm -rf pglite-k9-data "$modules"' EXIT
for script in 1b-pglite-full.js 3-tx-enqueue.js 4-fairness.js 5-fencing.js 7-kill9.js; do
  echo "===== $script"
  timeout 180 node "$script"
done
