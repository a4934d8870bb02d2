#!/usr/bin/env bash
# Builds the venv of the Python AG-UI SDK (ag-ui-protocol) from exactly test/python-sdk/requirements.txt
# (hash-locked, no resolver): test/e2e/event-ids-clients.e2e-spec.ts reads a gateway stream with it.
# Quick when nothing changed: a venv whose stamp holds the lock's sha256 and the Python version is left as it is.
#   scripts/python-sdk-venv.sh          install or check
#   scripts/python-sdk-venv.sh --lock   regenerate requirements.txt from requirements.in (uv, throw-away venv)
#   AGUI_PYTHON_SDK_VENV  where the venv goes (default <repo>/node_modules/.cache/ag-ui-python-sdk)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/test/python-sdk"
venv="${AGUI_PYTHON_SDK_VENV:-$root/node_modules/.cache/ag-ui-python-sdk}"
stamp="$venv/.requirements.sha256"

if [[ "${1:-}" == "--lock" ]]; then
  "$root/scripts/lock-python-requirements.sh" "$src/requirements.in" "$src/requirements.txt" \
    "scripts/python-sdk-venv.sh --lock"
  echo "test/python-sdk/requirements.txt regenerated; now run scripts/python-sdk-venv.sh and the test"
  exit 0
fi

wanted="$(sha256sum "$src/requirements.txt" | cut -d' ' -f1) $(python3 --version 2>&1)"
if [[ -x "$venv/bin/python" && "$(cat "$stamp" 2>/dev/null)" == "$wanted" ]]; then
  exit 0
fi

# Never clear a directory that is not a venv (a mistyped AGUI_PYTHON_SDK_VENV).
if [[ -e "$venv" && ! -f "$venv/pyvenv.cfg" ]]; then
  echo "scripts/python-sdk-venv.sh: $venv exists and is not a Python venv; remove it or set AGUI_PYTHON_SDK_VENV" >&2
  exit 1
fi
echo "== python sdk venv: building $venv from test/python-sdk/requirements.txt"
python3 -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
  -r "$src/requirements.txt"
"$venv/bin/python" -c 'import ag_ui.core'
echo "$wanted" >"$stamp"
echo "== python sdk venv: ready ($venv/bin/python)"
