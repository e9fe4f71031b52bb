#!/usr/bin/env bash
# Validates docker-compose.yml and deploy/k8s without a Docker engine or a cluster (schemas from PyPI packages).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib.sh"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -c "import kubernetes_validate, jsonschema, yaml" 2>/dev/null \
  || "$VENV/bin/pip" install -q kubernetes-validate jsonschema pyyaml
wheels="$VENV/wheels"
if ! ls "$wheels"/docker_compose-*.whl >/dev/null 2>&1; then
  # Only for the Compose specification schema it ships; never installed or run.
  "$VENV/bin/pip" download -q --no-deps -d "$wheels" docker-compose==1.29.2
fi
"$VENV/bin/python" "$root/scripts/validate_deploy.py" "$wheels"
