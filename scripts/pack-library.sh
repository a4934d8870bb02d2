#!/usr/bin/env bash
# `npm pack` of the library as npm would publish it: the lib build (tsconfig.lib.json) into a staging copy with
# what the package ships besides (README, LICENSE, CONTRIBUTING, docs/), so the checkout's dist/ (the service's
# build, or the demo build) is neither used nor touched. `npm run pack:lib` writes agui-a2a-gateway-<version>.tgz
# at the checkout's root (where examples/host-app's package.json and docs/extending.md#try-it take it from).
# Usage: scripts/pack-library.sh [destination directory] [more `npm pack` flags, e.g. --json]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
destination="$(cd "${1:-$repo}" && pwd)"
shift || true
staging="$(mktemp -d "${TMPDIR:-/tmp}/agui-pack-staging-XXXXXX")"
trap 'rm -rf "$staging"' EXIT
node "$repo/node_modules/typescript/bin/tsc" -p "$repo/tsconfig.lib.json" --outDir "$staging/dist"
# The client's ESM build beside its CommonJS one, as `npm run build:lib` makes it.
node "$repo/node_modules/typescript/bin/tsc" -p "$repo/tsconfig.client-esm.json" --outDir "$staging/dist/client/esm"
node "$repo/scripts/mark-client-esm.mjs" "$staging/dist"
cp "$repo/package.json" "$repo/README.md" "$repo/LICENSE" "$repo/CONTRIBUTING.md" "$staging/"
cp -R "$repo/docs" "$staging/docs"
cd "$staging"
npm pack --ignore-scripts --pack-destination "$destination" "$@"
