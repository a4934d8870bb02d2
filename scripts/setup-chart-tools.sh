#!/usr/bin/env bash
# Installs the tools the chart tests (test/deploy) validate rendered manifests with, offline after this:
#   - kubernetes-validate (PyPI, hash-locked in test/deploy/tools/requirements.txt): the Kubernetes API's JSON
#     schemas for 1.25–1.37 and their validator, in a virtual environment;
#   - pod-security (test/deploy/tools/pod-security, go.sum-locked): Kubernetes' own Pod Security Standards
#     evaluator (k8s.io/pod-security-admission) behind a small command, built with the Go toolchain;
#   - helm (test/deploy/tools/helm, go.sum-locked): helm v4 built from its own Go module (helm.sh/helm/v4,
#     through the Go module proxy), which scripts/helm.sh runs.
# Into node_modules/.cache/chart-tools (or $AGUI_CHART_TOOLS_DIR). Idempotent: quick when nothing changed.
#   scripts/setup-chart-tools.sh          install or check
#   scripts/setup-chart-tools.sh --lock   regenerate requirements.txt from requirements.in (uv, throw-away venv)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/test/deploy/tools"
tools="${AGUI_CHART_TOOLS_DIR:-$root/node_modules/.cache/chart-tools}"

if [[ "${1:-}" == "--lock" ]]; then
  "$root/scripts/lock-python-requirements.sh" "$src/requirements.in" "$src/requirements.txt" \
    "scripts/setup-chart-tools.sh --lock"
  echo "test/deploy/tools/requirements.txt regenerated; now run scripts/setup-chart-tools.sh and the chart tests"
  exit 0
fi

go=$(command -v go || echo /usr/local/go/bin/go)
if [[ ! -x "$go" ]]; then
  echo "scripts/setup-chart-tools.sh: the Go toolchain is needed to build test/deploy/tools/pod-security and helm" >&2
  exit 1
fi

# helm, with a stamp of its own: a change to the other tools does not rebuild it (minutes on a small machine).
helm_want=$(cd "$src/helm" && cat go.mod go.sum | sha256sum)
helm_want="$helm_want $("$go" version)"
if [[ -f "$tools/helm/stamp" && "$(cat "$tools/helm/stamp")" == "$helm_want" && -x "$tools/helm/bin/helm" ]]; then
  echo "helm is up to date in $tools/helm"
else
  rm -rf "$tools/helm"
  mkdir -p "$tools/helm/bin"
  helm_version=$(cd "$src/helm" && "$go" list -m -f '{{.Version}}' helm.sh/helm/v4)
  (cd "$src/helm" && GOFLAGS=-mod=readonly "$go" build -trimpath \
    -ldflags "-X helm.sh/helm/v4/internal/version.version=$helm_version" \
    -o "$tools/helm/bin/helm" helm.sh/helm/v4/cmd/helm)
  echo "$helm_want" >"$tools/helm/stamp"
  echo "helm $helm_version installed in $tools/helm"
fi
if ! command -v python3 >/dev/null; then
  echo "scripts/setup-chart-tools.sh: python3 (with venv) is needed for kubernetes-validate" >&2
  exit 1
fi

# What the installed tools were made from: rebuilt when any input or either toolchain changes.
want=$(cd "$src" && cat requirements.txt pod-security/go.mod pod-security/go.sum pod-security/*.go | sha256sum)
want="$want $(python3 --version) $("$go" version)"
if [[ -f "$tools/stamp" && "$(cat "$tools/stamp")" == "$want" && -x "$tools/bin/pod-security" &&
  -x "$tools/venv/bin/kubernetes-validate" ]]; then
  echo "chart tools are up to date in $tools"
  exit 0
fi

rm -rf "$tools/bin" "$tools/venv" "$tools/stamp"
mkdir -p "$tools/bin"
python3 -m venv "$tools/venv"
"$tools/venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes --no-deps \
  -r "$src/requirements.txt"
(cd "$src/pod-security" && GOFLAGS=-mod=readonly "$go" build -trimpath -o "$tools/bin/pod-security" .)
echo "$want" >"$tools/stamp"
echo "chart tools installed in $tools"
