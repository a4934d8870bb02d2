#!/bin/sh
# Fails loudly unless the kernel virtual environment at $1 can start `iac-code a2a`: its dependencies are
# consistent, the command loads, and the modules `iac-code a2a` imports at start import. The last check is the
# one that catches a resolver drift: with a2a-sdk 1.2.1 and later, iac-code 0.16.0's task store and dispatcher
# fail with "cannot import name 'encode_page_token'" while `iac-code a2a --help` still succeeds.
#   kernel/check-venv.sh /opt/iac-code
set -eu
venv="${1:?usage: kernel/check-venv.sh <venv>}"
"$venv/bin/pip" check
"$venv/bin/iac-code" a2a --help >/dev/null
"$venv/bin/python" -c "import iac_code.a2a.app, iac_code.a2a.task_store, iac_code.a2a.transports.dispatcher"
echo "kernel venv $venv: iac-code a2a starts"
