#!/usr/bin/env bash
# The test command: installs what is missing, starts a throw-away PostgreSQL cluster and a Tansu broker on
# free loopback ports, runs `swift test` against them, and tears everything down, whatever the outcome.
# Extra arguments go to `swift test` (e.g. `scripts/test.sh --filter Outbox`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"
start_heartbeat

bash "$root/scripts/install-deps.sh"
log "validating docker-compose.yml and deploy/k8s"
bash "$root/scripts/validate-deploy.sh"
log "checking the alert rules (promtool, with their unit tests) and the Grafana dashboards"
"$VENV/bin/python" "$root/scripts/check-observability.py"
log "checking the API documents (OpenAPI 3.1, shared components as in Shared/OpenAPI)"
"$VENV/bin/python" "$root/scripts/openapi-shared.py" --check
start_throwaway_infra
export TEST_BUILD_DIR="$root/.build/debug"
export TEST_CITY_CATALOGUE="$root/data/generated/cities15000.tsv"
# What a run leaves to look at afterwards (the dashboard's home page as the browser test saw it).
export TEST_ARTIFACTS_DIR="$root/.test-artifacts"
mkdir -p "$TEST_ARTIFACTS_DIR"

cd "$root"
log "building (also links the service executables, which the process tests start as operators would)"
swift build --build-tests
# No client creates a topic (allow.auto.create.topics=false): the run's broker gets the catalogue's topics as the
# stack's broker does; tests with topics of their own create them.
log "creating the catalogue's topics on the test broker (platformctl create-topics, as scripts/stack.sh does)"
"$root/.build/debug/platformctl" create-topics --brokers "$TEST_KAFKA_BROKERS" >/dev/null
status=0
log "starting the services as docker-compose.yml does (its commands and environment) against this run's Postgres and broker"
"$VENV/bin/python" "$root/scripts/compose-smoke.py" "$root/.build/debug" || status=$?
if [ $# -gt 0 ]; then
  log "running tests ($*)"
  run_bounded "${TEST_TIME_LIMIT:-2400}" swift test --skip-build "$@" || status=$?
else
  # The fault suite runs after the rest, alone: its scenarios time recoveries and wait on them, and sharing
  # two cores with the API fuzzers made a broker-restart scenario miss its deadline once. The shutdown suite
  # (built executables stopped with work in flight) runs alone too: beside the fuzzers, its restarted consumer
  # once applied nothing for two minutes and the suite's own load timed other tests' connections out.
  log "running tests (all but the shutdown and fault suites)"
  # Each suite within a limit (about four times what a run takes here): a hang fails with a diagnosis.
  run_bounded "${TEST_TIME_LIMIT:-1800}" swift test --skip-build --skip FaultTests --skip ServiceShutdownTests || status=$?
  log "running the shutdown suite"
  run_bounded 900 swift test --skip-build --filter ServiceShutdownTests || status=$?
  log "running the fault suite"
  run_bounded 1500 swift test --skip-build --filter FaultTests || status=$?
fi
[ -f "$TEST_ARTIFACTS_DIR/dashboard-home.png" ] && log "the dashboard's home page as the browser test saw it: $TEST_ARTIFACTS_DIR/dashboard-home.png"
[ $status -eq 0 ] || show_infra_logs
exit $status
