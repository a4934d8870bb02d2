#!/usr/bin/env bash
# Runs every test tier (unit, then integration + end-to-end + deploy), the second even when the first failed,
# prints each tier's totals at the end and exits non-zero when any tier failed. `npm test` runs this after
# scripts/test-setup.sh.
set -uo pipefail
cd "$(dirname "$0")/.."

totals="$(mktemp "${TMPDIR:-/tmp}/agui-test-totals-XXXXXX")"
trap 'rm -f "$totals"' EXIT
export AGUI_TEST_TOTALS_FILE="$totals"

status=0
npm run test:unit || status=1
npm run test:integration || status=1

echo "== totals"
cat "$totals"
# A tier that crashed before its reporter ran wrote no line: say so instead of printing nothing for it.
for tier in unit integration; do
  grep -q "^$tier: " "$totals" || echo "$tier: no result (the run crashed before its summary)"
done
exit "$status"
