#!/usr/bin/env bash
# The operator's smoke test, as the test command runs it (X5): a second local stack started by
# `scripts/stack.sh start` with the journey profile (its own state directory and free ports, the services already
# built), then `scripts/journeys.sh` against it twice, the second run meeting the first one's data, as an operator
# who runs it after each deployment would. The stack is stopped and its directory removed whatever the outcome.
# Usage: journeys-on-stack.sh (needs the services and the test binary built in .build/debug).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"

STATE_DIR="$(mktemp -d "${TMPDIR:-/tmp}/stack-journeys.XXXXXX")"
read -r -a ports < <(free_ports 20)
export STATE_DIR STACK_POSTGRES_PORT="${ports[0]}" STACK_KAFKA_PORT="${ports[1]}" STACK_MAIL_PORT="${ports[2]}"
export STACK_SERVICE_PORTS="$(IFS=,; echo "${ports[*]:3:6}")" STACK_METRICS_PORTS="$(IFS=,; echo "${ports[*]:9:6}")"
export STACK_JOURNEY_PORTS="${ports[*]:15:5}"
export STACK_SKIP_BUILD=1 JOURNEYS_SKIP_BUILD=1
cleanup() {
  bash "$root/scripts/stack.sh" stop >/dev/null 2>&1 || true
  rm -rf "$STATE_DIR"
}
trap cleanup EXIT

log "starting a local stack with the journey profile in $STATE_DIR"
if ! STACK_JOURNEYS=1 bash "$root/scripts/stack.sh" start >"$STATE_DIR/start.log" 2>&1; then
  grep -v '^%' "$STATE_DIR/start.log" | tail -n 40 >&2
  exit 1
fi
status=0
for run in 1 2; do
  log "journeys against the running stack, run $run of 2"
  bash "$root/scripts/journeys.sh" || { status=$?; break; }
done
if [ $status -ne 0 ]; then
  for service in weather-fetcher warning-detector places-importer auth analytics-aggregator appointment-booker; do
    echo "--- last lines of $service's log ---" >&2
    grep -v '^%' "$STATE_DIR/logs/$service.log" | tail -n 15 >&2 || true
  done
fi
exit $status
