#!/usr/bin/env bash
# The throw-away PostgreSQL cluster and Tansu broker as commands, for the tests that start and stop one of their
# own (the fault, readiness and TLS tests): the start and stop of the test command and the bench (lib.sh's
# start_postgres, start_tansu), so both are written once.
#   throwaway.sh postgres-start DATA_DIR PORT LOG   PG_FSYNC, PG_MAX_CONNECTIONS; PG_OPTIONS: more `-c` settings
#   throwaway.sh postgres-stop DATA_DIR             fast shutdown: sessions are cut, as in a restart or failover
#   throwaway.sh broker-start PORT LOG PIDFILE      memory storage: a restart starts with an empty log
#   throwaway.sh broker-stop PIDFILE
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

case "${1:-}" in
  postgres-start) start_postgres "$2" "$3" "$4" ;;
  postgres-stop) stop_postgres "$2" ;;
  broker-start) start_tansu "$2" "$3" "$4" ;;
  broker-stop) stop_pidfile "$2" KILL ;; # Tansu ignores SIGTERM; its memory log has nothing to save
  *)
    echo "usage: throwaway.sh postgres-start DATA_DIR PORT LOG | postgres-stop DATA_DIR | broker-start PORT LOG PIDFILE | broker-stop PIDFILE" >&2
    exit 2
    ;;
esac
