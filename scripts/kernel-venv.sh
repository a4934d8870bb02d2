#!/usr/bin/env bash
# Builds the iac-code kernel's Python venv from exactly kernel/requirements.txt (hash-locked, no resolver) and checks
# that the kernel imports. The real-kernel tests run ${IAC_CODE_KERNEL_VENV:-<repo>/.kernel-venv}/bin/iac-code.
# Quick when nothing changed: a venv whose stamp holds the sha256 of requirements.txt is left as it is.
#   IAC_CODE_KERNEL_VENV    where the venv goes (default <repo>/.kernel-venv)
#   IAC_CODE_KERNEL_PYTHON  the Python that creates it (default python3; the lock is compiled for Python 3.11)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
requirements="$root/kernel/requirements.txt"
venv="${IAC_CODE_KERNEL_VENV:-$root/.kernel-venv}"
python="${IAC_CODE_KERNEL_PYTHON:-python3}"
stamp="$venv/.requirements.sha256"

fail() {
  echo "scripts/kernel-venv.sh: $*" >&2
  exit 1
}

wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [ -x "$venv/bin/iac-code" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
  exit 0
fi

# Never clear a directory that is not a venv (a mistyped IAC_CODE_KERNEL_VENV).
if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
  fail "$venv exists and is not a Python venv; remove it or set IAC_CODE_KERNEL_VENV"
fi
echo "== kernel venv: building $venv from kernel/requirements.txt with $("$python" --version 2>&1)"
"$python" -m venv --clear "$venv" || fail "$python -m venv failed (Debian: apt-get install python3-venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip ||
  fail "upgrading pip in $venv failed"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
  -r "$requirements" || fail "installing kernel/requirements.txt failed"

# The kernel must really start: the same check the image build runs (kernel/check-venv.sh).
"$root/kernel/check-venv.sh" "$venv" ||
  fail "the kernel in $venv does not start; is kernel/requirements.txt a set iac-code starts with?"

echo "$wanted" >"$stamp"
echo "== kernel venv: ready ($venv/bin/iac-code)"
