#!/usr/bin/env bash
# Regenerates kernel/requirements.txt (hash-locked) from kernel/requirements.in for Python 3.11, the version of the
# image's Debian bookworm python3. Uses uv from a throw-away virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools/venv"
"$tools/venv/bin/pip" install --quiet uv
"$tools/venv/bin/uv" pip compile --quiet --generate-hashes --python-version 3.11 \
  --custom-compile-command "scripts/kernel-lock.sh" \
  kernel/requirements.in -o kernel/requirements.txt
echo "kernel/requirements.txt regenerated; now run scripts/kernel-venv.sh and the real-kernel tests"
