#!/usr/bin/env bash
# The fault suite alone (it also runs in scripts/test.sh): kill -9 mid-batch, two instances with one killed,
# broker and Postgres restarts mid-stream, poison events. Prints the table scenario | events | applied once |
# lost | doubled | time to recover, and fails unless every row has 0 lost and 0 doubled.
# FAULT_ONLY="<part of a scenario name>" runs the matching scenarios only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec bash "$root/scripts/test.sh" --filter FaultSuiteTests "$@"
