#!/usr/bin/env bash
# Regenerates kernel/requirements.txt (hash-locked) from kernel/requirements.in for Python 3.11, the version of the
# image's Debian bookworm python3.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/lock-python-requirements.sh kernel/requirements.in kernel/requirements.txt scripts/kernel-lock.sh
echo "kernel/requirements.txt regenerated; now run scripts/kernel-venv.sh and the real-kernel tests"
