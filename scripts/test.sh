#!/usr/bin/env bash
# The test command: installs what is missing, starts a throw-away PostgreSQL cluster and a Tansu broker on
# free loopback ports, runs `swift test` against them, and tears everything down, whatever the outcome.
# Extra arguments go to `swift test` (e.g. `scripts/test.sh --filter Outbox`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

bash "$root/scripts/install-deps.sh"

work="$(mktemp -d /tmp/platform-test.XXXXXX)"
chmod 755 "$work"
pg_port="$(free_port)"
kafka_port="$(free_port)"
cleanup() {
  stop_pidfile "$work/tansu.pid"
  stop_postgres "$work/pgdata"
  rm -rf "$work"
}
trap cleanup EXIT

log "starting PostgreSQL on 127.0.0.1:$pg_port"
PG_FSYNC=off start_postgres "$work/pgdata" "$pg_port" "$work/postgres.log"
log "starting Tansu on 127.0.0.1:$kafka_port"
start_tansu "$kafka_port" "$work/tansu.log" "$work/tansu.pid"

export TEST_POSTGRES_HOST=127.0.0.1 TEST_POSTGRES_PORT="$pg_port" TEST_POSTGRES_USER=postgres
export TEST_KAFKA_BROKERS="127.0.0.1:$kafka_port"
export TANSU_BIN="$(tansu_bin)"
export TEST_BUILD_DIR="$root/.build/debug"

cd "$root"
log "building"
# The service executables too: the process tests start them as operators would.
swift build
swift build --build-tests
log "running tests"
status=0
swift test --skip-build "$@" || status=$?
if [ $status -ne 0 ]; then
  echo "--- last lines of the broker log ---" >&2; tail -n 20 "$work/tansu.log" >&2 || true
  echo "--- last lines of the postgres log ---" >&2; tail -n 20 "$work/postgres.log" >&2 || true
fi
exit $status
