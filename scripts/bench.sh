#!/usr/bin/env bash
# The bench command (run by hand, never in CI): release build, throw-away PostgreSQL and Tansu, then the
# Markdown table of platform-bench. Extra arguments go to platform-bench (e.g. --count 50000).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

bash "$root/scripts/install-deps.sh"
cd "$root"
log "building platform-bench (release; the first release build takes several minutes)"
swift build -c release --product platform-bench
swift build -c release --product weather-fetcher
swift build -c release --product places-importer
swift build -c release --product warning-detector
swift build -c release --product appointment-booker
swift build -c release --product analytics-aggregator
# The stack rows (--only stack) start all six services and the topics as docker-compose.yml does.
swift build -c release --product auth
swift build -c release --product platformctl
PG_FSYNC=on start_throwaway_infra
"$root/.build/release/platform-bench" --brokers "$TEST_KAFKA_BROKERS" --postgres-port "$TEST_POSTGRES_PORT" "$@"
