#!/bin/sh
# Fails loudly unless the kernel virtual environment at $1 can start `iac-code a2a`: its dependencies are
# consistent, the command loads, and every module of iac_code.a2a imports (check_imports.py). The last check is
# the one that catches a resolver drift: with a2a-sdk 1.2.1 and later, iac-code 0.16.0's task store and
# transports fail with "cannot import name 'encode_page_token'" while `iac-code a2a --help` still succeeds.
# Used by scripts/kernel-venv.sh (the tests' venv) and by the Dockerfile's kernel stage.
#   kernel/check-venv.sh /opt/iac-code
set -eu
venv="${1:?usage: kernel/check-venv.sh <venv>}"
# The dependency check needs pip; the image's venv has none once built (the Dockerfile removes it).
if [ -x "$venv/bin/pip" ]; then
  "$venv/bin/pip" check
else
  echo "kernel venv $venv: no pip (removed after the build's dependency check)"
fi
"$venv/bin/iac-code" a2a --help >/dev/null
"$venv/bin/python" "$(dirname "$0")/check_imports.py"
echo "kernel venv $venv: iac-code a2a starts"
