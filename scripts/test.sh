#!/usr/bin/env bash
# The test command: installs what is missing, starts a throw-away PostgreSQL cluster and a Tansu broker on
# free loopback ports, builds, runs the tests against them, and tears everything down, whatever the outcome.
# Extra arguments go to the test binary (e.g. `scripts/test.sh --filter Outbox`).
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
log "checking that every setting is described once, in the type that reads it, docs/settings.md rendered from it"
"$VENV/bin/python" "$root/scripts/check-settings.py"
log "checking that every route the docs name is in an openapi.yaml or registered in the code"
"$VENV/bin/python" "$root/scripts/check-routes.py"
log "checking that each service's core (Domain/, UseCases/) imports no storage, HTTP or contract module"
"$VENV/bin/python" "$root/scripts/check-cores.py"
log "checking that no closed set travels the topics as text (payload fields: enums or named open text)"
"$VENV/bin/python" "$root/scripts/check-payloads.py"
log "checking the prose budgets and that no document or source names an issue number"
"$VENV/bin/python" "$root/scripts/check-prose.py"
log "checking the Swift formatting (swift format lint --strict, settings in .swift-format)"
(cd "$root" && swift format lint --strict --recursive --configuration .swift-format Shared Services Tests Benchmarks Tools Clients Plugins)
start_throwaway_infra
export TEST_BUILD_DIR="$root/.build/debug"
export TEST_CITY_CATALOGUE="$root/data/generated/cities15000.tsv"
# What a run leaves to look at afterwards (the dashboard's home page as the browser test saw it).
export TEST_ARTIFACTS_DIR="$root/.test-artifacts"
mkdir -p "$TEST_ARTIFACTS_DIR"

cd "$root"
log "building (also links the service executables, which the process tests start as operators would)"
swift build --build-tests
log "checking every file that lists the services against the registry (platformctl check-services)"
"$root/.build/debug/platformctl" check-services --root "$root"
# No client creates a topic (allow.auto.create.topics=false): the run's broker gets the catalogue's topics as the
# stack's broker does; tests with topics of their own create them.
log "creating the catalogue's topics on the test broker (platformctl create-topics, as scripts/stack.sh does)"
"$root/.build/debug/platformctl" create-topics --brokers "$TEST_KAFKA_BROKERS" >/dev/null
# The test binary itself rather than `swift test`, which cannot pass it a bound on how many tests run at once:
# with every suite at once on two cores, requests and Kafka joins of unrelated tests run out of time.
# scripts/run-tests.py watches the run's event stream: a phase in which no test starts or ends for STALL seconds is
# taken for hung, its unfinished tests are named and run once more alone (see the script).
run_tests() { # run_tests LIMIT STALL ARGUMENTS...
  local limit=$1 stall=$2
  shift 2
  NO_COLOR=1 "$VENV/bin/python" "$root/scripts/run-tests.py" "$limit" "$stall" "$root/.build/debug/mobile-backend-platformPackageTests.xctest" \
    --testing-library swift-testing --experimental-maximum-parallelization-width "${TEST_PARALLEL_WIDTH:-6}" "$@"
}
status=0
log "starting the services as docker-compose.yml does (its commands and environment) against this run's Postgres and broker"
"$VENV/bin/python" "$root/scripts/compose-smoke.py" "$root/.build/debug" || status=$?
if [ $# -gt 0 ]; then
  log "running tests ($*)"
  run_tests "${TEST_TIME_LIMIT:-2400}" 1200 "$@" || status=$?
else
  # The fault suite runs after the rest, alone: its scenarios time recoveries and wait on them, and on two
  # shared cores a recovery can miss its deadline. The shutdown suite (built executables stopped with work in
  # flight) runs alone too: its restarted consumers need the CPU to rejoin their group in time, and its own load
  # would time other tests' connections out. The API fuzzers and the browser run in phases of their own: each
  # keeps a core busy, and the browser's 30-second steps need the rest.
  # The unit targets first: rules tested in-process with nothing running, a failure there is found in seconds.
  log "running the unit targets (nothing running: no Postgres, broker, child process or server)"
  run_tests 300 120 --filter UnitTests || status=$?
  log "running tests (all but the unit targets, the fuzzers, the browser, the shutdown and fault suites)"
  # Each phase within a limit (about four times what a run takes here). Most of this phase's tests wait on the
  # broker and the database more than they compute: 24 at once keep two cores busy, where 6 leave half of them
  # idle (docs/benchmarks.md, the test command's main pass).
  TEST_PARALLEL_WIDTH="${MAIN_PASS_WIDTH:-24}" run_tests "${TEST_TIME_LIMIT:-1800}" 300 \
    --skip UnitTests --skip FaultTests --skip ServiceShutdownTests --skip ContractTests --skip DashboardBrowserTests \
    --skip StackJourneyTests || status=$?
  # One stack at a time: each journey starts the six services as docker-compose does, in the compose database.
  log "running the app journeys through the six services started as docker-compose.yml starts them (X5)"
  run_tests 1200 300 --filter StackJourneyTests || status=$?
  log "running the journeys against a stack already running (scripts/stack.sh, then scripts/journeys.sh twice)"
  bash "$root/scripts/journeys-on-stack.sh" || status=$?
  log "running the dashboard in a browser (N5)"
  run_tests 600 300 --filter DashboardBrowserTests || status=$?
  log "running the API fuzzers (X3, Schemathesis against each service)"
  run_tests 1500 600 --filter ContractTests || status=$?
  log "running the shutdown suite"
  run_tests 900 600 --filter ServiceShutdownTests || status=$?
  log "running readiness through broker and Postgres restarts (X4)"
  run_tests 600 300 --filter ReadinessTests || status=$?
  log "running the fault suite"
  run_tests 1800 1800 --filter FaultSuiteTests || status=$?
fi
[ -f "$TEST_ARTIFACTS_DIR/dashboard-home.png" ] && log "the dashboard's home page as the browser test saw it: $TEST_ARTIFACTS_DIR/dashboard-home.png"
[ $status -eq 0 ] || show_infra_logs
exit $status
