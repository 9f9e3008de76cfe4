#!/usr/bin/env bash
# The restore drill, for an operator's schedule (docs/operations.md, "Backups"):
# restores the newest PostgreSQL dump of BACKUP_DIR into a scratch database,
# checks the ledger there with the service's own check (node main.js
# ledger-check), counts the rows of the main tables, drops the scratch database
# and prints one line: its verdict. Details of a failure go to stderr.
#
#   BACKUP_DIR=/var/backups/paysign DRILL_ADMIN_URL=postgres://paysign_drill@drill-db.internal/postgres ./restore-drill.sh
#
#   BACKUP_DIR             the folder the backup commands write paysign-<time>.dump into
#   DRILL_ADMIN_URL        a role that may create databases, on the server to restore
#                          into: a drill server, not production's. Give its password in
#                          ~/.pgpass, not in the URL, which `ps` shows.
#   DRILL_MAX_AGE_SECONDS  the oldest the newest dump may be; older, the backups have
#                          stopped and the drill fails (default 93600: 26 h, a daily dump)
#   PAYSIGN_MAIN           the service's main.js (default: the one beside this script,
#                          as in the deployable folder)
#
# Exits 0 when the drill passed, 1 when it failed, 2 when it cannot run (a
# variable or a tool is missing). Needs node, and psql and pg_restore of the
# dump's server version or newer.
set -uo pipefail

readonly MAIN_TABLES=(merchants payins payouts refunds ledger_journals ledger_entries outbox_events)
readonly DEFAULT_MAX_AGE_SECONDS=93600

cannot_run() {
  echo "restore drill: cannot run: $*" >&2
  exit 2
}

[[ -n "${BACKUP_DIR:-}" ]] || cannot_run 'set BACKUP_DIR to the folder of the dumps'
[[ -n "${DRILL_ADMIN_URL:-}" ]] || cannot_run 'set DRILL_ADMIN_URL to a role that may create databases on the drill server'
max_age="${DRILL_MAX_AGE_SECONDS:-$DEFAULT_MAX_AGE_SECONDS}"
[[ "$max_age" =~ ^[0-9]+$ ]] || cannot_run "DRILL_MAX_AGE_SECONDS must be a whole number of seconds, got \"$max_age\""
main="${PAYSIGN_MAIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/main.js}"
[[ -f "$main" ]] || cannot_run "no service at $main: run the drill from the deployable folder, or set PAYSIGN_MAIN"
for tool in node psql pg_restore; do
  command -v "$tool" >/dev/null || cannot_run "$tool is not on PATH"
done

work="$(mktemp -d)"
scratch=''
scratch_created=false

psql_admin() {
  psql --no-psqlrc --quiet --set=ON_ERROR_STOP=1 --dbname="$DRILL_ADMIN_URL" "$@"
}

# Drops the scratch database if it was created; says why on stderr when it cannot.
drop_scratch() {
  [[ "$scratch_created" == true ]] || return 0
  if psql_admin --command="DROP DATABASE IF EXISTS \"$scratch\" WITH (FORCE)" 2>"$work/drop.err"; then
    scratch_created=false
    return 0
  fi
  cat "$work/drop.err" >&2
  return 1
}

# Interrupted or killed: the scratch database is dropped all the same.
trap 'drop_scratch; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The verdict: drops the scratch database first, so that a database left behind fails the drill.
verdict() {
  local outcome="$1" detail="$2"
  if ! drop_scratch; then
    outcome=FAILED
    detail="$detail; the scratch database $scratch could not be dropped: drop it by hand"
  fi
  echo "restore drill: $outcome $detail"
  [[ "$outcome" == PASSED ]] && exit 0
  exit 1
}

dump="$(find "$BACKUP_DIR" -maxdepth 1 -type f -name '*.dump' -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -n 1 | cut -d' ' -f2-)"
[[ -n "$dump" ]] || verdict FAILED "no dump in BACKUP_DIR ($BACKUP_DIR): are the backups running?"
name="$(basename "$dump")"
age=$(($(date +%s) - $(stat --format=%Y "$dump")))
((age <= max_age)) || verdict FAILED "$name is $age s old, over DRILL_MAX_AGE_SECONDS ($max_age): are the backups running?"

scratch="paysign_drill_$(date -u +%Y%m%d%H%M%S)_$$"
scratch_url="$(node -e 'const url = new URL(process.argv[1]); url.pathname = `/${process.argv[2]}`; console.log(url.toString())' "$DRILL_ADMIN_URL" "$scratch")" ||
  cannot_run 'DRILL_ADMIN_URL is not a URL (postgres://user@host:port/database)'
if ! psql_admin --command="CREATE DATABASE \"$scratch\"" 2>"$work/create.err"; then
  cat "$work/create.err" >&2
  verdict FAILED "$name: cannot create the scratch database $scratch on DRILL_ADMIN_URL's server: $(head -n 1 "$work/create.err")"
fi
scratch_created=true

# The data alone: owners and grants name roles that a drill server may not have.
started=$(date +%s)
if ! pg_restore --no-owner --no-privileges --exit-on-error --dbname="$scratch_url" "$dump" 2>"$work/restore.err"; then
  cat "$work/restore.err" >&2
  verdict FAILED "$name: pg_restore failed: $(grep -m 1 -i 'error' "$work/restore.err" || head -n 1 "$work/restore.err")"
fi
restore_seconds=$(($(date +%s) - started))

DATABASE_URL="$scratch_url" node "$main" ledger-check >"$work/ledger.out" 2>&1
ledger_exit=$?
summary="$(grep -m 1 '^ledger check: ' "$work/ledger.out" || true)"
if ((ledger_exit != 0)); then
  cat "$work/ledger.out" >&2
  broken="$(grep '^BROKEN' "$work/ledger.out" | sed 's/  */ /g' | paste -sd ';' -)"
  verdict FAILED "$name: the ledger check exited $ledger_exit: ${broken:-${summary:-$(head -n 1 "$work/ledger.out")}}"
fi

counts_sql="SELECT concat_ws(' '"
for table in "${MAIN_TABLES[@]}"; do counts_sql+=", '$table=' || (SELECT count(*) FROM $table)"; done
counts_sql+=')'
if ! counts="$(psql --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 --dbname="$scratch_url" --command="$counts_sql" 2>"$work/counts.err")"; then
  cat "$work/counts.err" >&2
  verdict FAILED "$name: cannot count the main tables: $(head -n 1 "$work/counts.err")"
fi
# A dump of an empty or another database restores, and its empty ledger holds: it must hold merchants.
[[ "$counts" =~ (^| )merchants=0( |$) ]] && verdict FAILED "$name restored no merchant ($counts): a dump of an empty or another database?"

verdict PASSED "$name, $age s old, restored in $restore_seconds s into $scratch, dropped: ${summary#ledger check: }, every invariant holds; $counts"
