#!/usr/bin/env bash
# Runs helm v4 built from its Go module (test/deploy/tools/helm, go.sum-locked) by scripts/setup-chart-tools.sh,
# into node_modules/.cache/chart-tools/helm (or $AGUI_CHART_TOOLS_DIR/helm); builds it first when missing.
#   scripts/helm.sh lint --strict helm/agui-a2a-gateway
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${AGUI_CHART_TOOLS_DIR:-$root/node_modules/.cache/chart-tools}"
helm="$tools/helm/bin/helm"

if [[ ! -x "$helm" ]]; then
  "$root/scripts/setup-chart-tools.sh" >&2
fi

# Keep helm's own config, cache and data out of the user's home: lint and template need no repositories.
cache="$tools/helm"
export HELM_CONFIG_HOME="$cache/config" HELM_CACHE_HOME="$cache/cache" HELM_DATA_HOME="$cache/data"
exec "$helm" "$@"
