#!/usr/bin/env bash
# The apps' journeys (weather, places, horoscope, hotel survey, dashboard) against the local stack that is already
# running, as an operator's smoke test of it (X5):
#   STACK_JOURNEYS=1 scripts/stack.sh start   # or `restart`: the stack with its providers pointed at the fakes
#   scripts/journeys.sh                        # the journeys against its ports, each step's latency printed
# Each journey starts the fake providers it needs on the ports the stack was given (in $STATE_DIR/journeys/), drives
# the services with the generated clients only, and prints a table of its steps (also kept in
# .test-artifacts/journeys/). A journey can run again and again against the same stack: it compares the dashboard's
# numbers with those it found, and makes new accounts, devices and partners each time.
# STATE_DIR names the stack (default .stack); JOURNEYS_SKIP_BUILD=1 uses the test binary already built; extra
# arguments go to the test binary (e.g. `--skip Survey`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

profile="$STATE_DIR/journeys"
if [ ! -f "$profile/settings.env" ] || [ ! -f "$profile/services.env" ]; then
  echo "the stack in $STATE_DIR has no journey profile: start it with STACK_JOURNEYS=1 scripts/stack.sh restart" >&2
  exit 64
fi
while IFS== read -r service address; do
  if ! curl -fsS --connect-timeout 2 --max-time 5 "$address/ready" >/dev/null 2>&1; then
    echo "$service is not ready at $address/ready: is the stack running (scripts/stack.sh status)?" >&2
    exit 69
  fi
done <"$profile/services.env"

STATE_DIR="$(cd "$STATE_DIR" && pwd)"
cd "$root"
if [ "${JOURNEYS_SKIP_BUILD:-0}" != 1 ]; then
  log "building the journeys (swift build --build-tests)"
  swift build --build-tests
fi
export JOURNEY_STACK_DIR="$STATE_DIR"
export TEST_ARTIFACTS_DIR="${TEST_ARTIFACTS_DIR:-$root/.test-artifacts}"
mkdir -p "$TEST_ARTIFACTS_DIR"
log "running the journeys against the stack in $STATE_DIR (reports in $TEST_ARTIFACTS_DIR/journeys)"
NO_COLOR=1 "$VENV/bin/python" "$root/scripts/run-tests.py" 1200 300 "$root/.build/debug/mobile-backend-platformPackageTests.xctest" \
  --testing-library swift-testing --filter StackJourneyTests "$@"
