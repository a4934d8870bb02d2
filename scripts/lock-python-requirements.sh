#!/usr/bin/env bash
# Compiles a requirements.in into a hash-locked requirements.txt for Python 3.11 (the image's Debian bookworm
# python3), with uv from a throw-away virtual environment. Used by scripts/kernel-lock.sh and
# scripts/setup-chart-tools.sh --lock.
#   scripts/lock-python-requirements.sh <requirements.in> <requirements.txt> <command named in the header>
set -euo pipefail
input="${1:?requirements.in}" output="${2:?requirements.txt}" command="${3:?regenerating command}"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools/venv"
"$tools/venv/bin/pip" install --quiet uv
"$tools/venv/bin/uv" pip compile --quiet --generate-hashes --python-version 3.11 \
  --custom-compile-command "$command" "$input" -o "$output"
