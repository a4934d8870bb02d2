#!/usr/bin/env bash
# Installs what the test suites need; `npm test` runs it first. Idempotent, and quick when everything is present:
# apt runs only for what is missing (apt-get update once), the kernel venv is rebuilt only when its lock changed.
#   redis-server  the Redis state store tests start their own on a loopback port (REDIS_SERVER overrides the path)
#   chromium      the playground browser test drives Debian's package, never a downloaded browser
#   python3-venv  scripts/kernel-venv.sh and scripts/python-sdk-venv.sh build their venvs with it
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_updated=""

# Installs the given Debian packages, running `apt-get update` before the first install of this run.
apt_install() {
  if [ -z "$apt_updated" ]; then
    $sudo apt-get update
    apt_updated=1
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

missing=()
[ -x "${REDIS_SERVER:-/usr/bin/redis-server}" ] || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
python="${IAC_CODE_KERNEL_PYTHON:-python3}"
"$python" -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3 python3-venv)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== test-setup: installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

# The iac-code kernel the real-kernel tests start: a venv from exactly kernel/requirements.txt.
scripts/kernel-venv.sh

# The Python AG-UI SDK (ag-ui-protocol) the event-ids test reads gateway streams with: a venv from exactly
# test/python-sdk/requirements.txt (hash-locked), in node_modules/.cache/ag-ui-python-sdk.
scripts/python-sdk-venv.sh

# == Further setup steps go here (other system packages): each one idempotent and quick when done,
# installing with apt_install so `apt-get update` still runs at most once.

# The chart checks of test/deploy: kubernetes-validate (hash-locked, from PyPI) and Kubernetes' own Pod Security
# evaluator (built from its Go module).
scripts/setup-chart-tools.sh

echo "== test-setup: ready"
