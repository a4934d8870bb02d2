# agui-a2a-gateway images. Two production targets, both multi-arch:
#   gateway    Node only. On Kubernetes the iac-code A2A kernel runs next to it as a sidecar (helm/).
#   agentcore  gateway + the iac-code kernel (Python), so IAC_CODE_AGUI_UPSTREAM=auto finds `iac-code` on PATH
#              and runs the managed child inside the single container Amazon Bedrock AgentCore allows (AgentCore
#              runs linux/arm64; the amd64 image is for local runs and the Helm chart's kernel sidecar).
# and one for trying it out: `demo`, the gateway plus the embedded demo agent (local smoke tests only; the
# production targets hold no demo code and refuse IAC_CODE_AGUI_UPSTREAM=demo at boot).
#
#   docker buildx build --platform linux/arm64,linux/amd64 --target gateway   -t <registry>/agui-a2a-gateway:<v> --push .
#   docker buildx build --platform linux/arm64,linux/amd64 --target agentcore -t <registry>/agui-a2a-gateway:<v>-agentcore --push .
#
# BuildKit's built-in Dockerfile frontend is enough (no `# syntax=` line, so no frontend image is pulled): the
# npm and pip downloads go to cache mounts, which never reach an image layer.
# The Node version is the one the tests run on (the `node` devDependency in package.json); test/deploy checks that
# they stay equal. Pin a digest too (node:<version>-bookworm-slim@sha256:…) where your registry policy asks for it.
# The kernel's Python packages are the hash-locked set of kernel/requirements.txt (scripts/kernel-lock.sh).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# ---- build: TypeScript → dist/. JavaScript output does not depend on the CPU, so it runs on the builder's own
# platform (no emulation) and its dev dependencies never reach a final image.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the `node` devDependency would otherwise download a second Node binary; the image's own Node 24 builds.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY playground ./playground
RUN npm run build
# Type declarations and source maps are for the build and the editor: nothing at run time reads them.
RUN find dist -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
      -o -name '*.ts.map' -o -name '*.js.map' -o -name '*.mjs.map' -o -name '*.cjs.map' \) -delete

# ---- build-demo: the demo agent, compiled on its own (`npm run build:demo`) for the demo target only.
FROM --platform=$BUILDPLATFORM build AS build-demo
COPY tsconfig.demo.json ./
RUN npm run build:demo

# ---- prod-deps: production dependencies for the TARGET platform. sharp's native binary is an optional
# dependency per platform (@img/sharp-linux-arm64, @img/sharp-linux-x64): npm picks it from --os/--cpu/--libc,
# so this cross-installs on the builder's platform without emulation and still gets the right binary.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS prod-deps
ARG TARGETARCH
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    case "$TARGETARCH" in \
      amd64) npm_cpu=x64 ;; \
      arm64) npm_cpu=arm64 ;; \
      *) echo "unsupported TARGETARCH: $TARGETARCH" >&2; exit 1 ;; \
    esac \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --os=linux --cpu="$npm_cpu" --libc=glibc
# The same for the dependencies: @types/* packages (some are dependencies of runtime packages), declarations
# and source maps; the image carries only what a start can load.
RUN rm -rf node_modules/@types \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
      -o -name '*.ts.map' -o -name '*.js.map' -o -name '*.mjs.map' -o -name '*.cjs.map' \) -delete

# ---- gateway: the runtime image.
FROM ${NODE_IMAGE} AS gateway
# tini as PID 1: forwards SIGTERM to Node (graceful drain) and reaps the managed child's zombies.
# jemalloc as the allocator: glibc's malloc keeps the memory a burst of requests fragmented in its arenas after
# the requests are gone (RSS stays up); jemalloc, with its background thread (MALLOC_CONF below), gives unused
# pages back within seconds even when the service is idle, and with dirty pages kept 1 s instead of 10 s the
# peak of a hostile burst is ~60 MB lower (docs/benchmarks.md, "Memory after hostile input").
# Linked under one path for both architectures.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /usr/local/lib/libjemalloc.so.2 \
 && test -e /usr/local/lib/libjemalloc.so.2
# The service runs `node` only: the base image's package managers (npm, npx, corepack, yarn) go, and with them
# the most reported findings of image scans. The build fails if one is left.
RUN rm -rf /usr/local/lib/node_modules /opt/yarn-v* \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg \
 && for tool in npm npx corepack yarn yarnpkg; do \
      if command -v "$tool" >/dev/null; then echo "$tool is still in the image" >&2; exit 1; fi; \
    done
# V8's young generation capped at 2 × 4 MiB instead of Node 24's 2 × 32 MiB: ~30 MB less RSS idle, ~30 KB less per
# open run and ~90 MB less at the peak of a hostile burst, CPU per event unchanged within the noise
# (docs/benchmarks.md, "Memory" and "Hostile fuzz").
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=4 \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,dirty_decay_ms:1000 \
    IAC_CODE_AGUI_HOST=0.0.0.0 \
    IAC_CODE_AGUI_PORT=8080 \
    IAC_CODE_AGUI_STATE_DIR=/var/lib/agui \
    IAC_CODE_AGUI_ALLOWED_CWDS=/workspace:/tmp
WORKDIR /app
# Owned by root and read-only for the runtime user: the app cannot rewrite its own code.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
# The `node` user of the base image, by number, so Kubernetes' runAsNonRoot can verify it.
RUN mkdir -p /var/lib/agui /workspace && chown 1000:1000 /var/lib/agui /workspace && chmod 0700 /var/lib/agui
VOLUME ["/var/lib/agui"]
# Node's compile cache (V8 code cache of every module a start loads), warmed here by a start itself
# (dist/warm-compile-cache.js: main.js up to a server that answered /ping, then SIGTERM) with the node flags of
# CMD below (V8's flags key the cache: --expose-gc or not is another directory), as the runtime user (Node keeps
# one cache per user id), then made root-owned and read-only like the code it caches, yet readable by everyone
# (Node writes its entries 0600: left so, the runtime user could read none of them): a start reads every module
# from it and writes nothing. Measured figures: docs/benchmarks.md.
ENV NODE_COMPILE_CACHE=/app/.node-compile-cache
RUN mkdir "$NODE_COMPILE_CACHE" && chown 1000:1000 "$NODE_COMPILE_CACHE"
USER 1000:1000
RUN node --expose-gc dist/warm-compile-cache.js
USER root
RUN chown -R root:root "$NODE_COMPILE_CACHE" && chmod -R a+rX,a-w "$NODE_COMPILE_CACHE"
USER 1000:1000
EXPOSE 8080
# Node itself checks /ping (AgentCore's health route): the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.IAC_CODE_AGUI_PORT||8080)+'/ping').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# --expose-gc turns on the memory reclaimer (docs/behaviour/bounds.md#memory-reclaimer); without it there is none.
CMD ["node", "--expose-gc", "dist/main.js"]

# ---- demo: the gateway image plus the embedded demo agent, started with it (local smoke tests).
FROM gateway AS demo
COPY --from=build-demo /src/dist/demo-kernel ./dist/demo-kernel
ENV IAC_CODE_AGUI_UPSTREAM=demo
CMD ["node", "--expose-gc", "dist/demo-kernel/demo-main.js"]

# ---- iac-code-kernel: the Python kernel in a virtual environment, built for the target platform (its wheels
# are native: cryptography, tiktoken, tree-sitter). Needs a reachable Python package index at build time.
FROM ${NODE_IMAGE} AS iac-code-kernel
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*
# Exactly the locked set (`iac-code[a2a]` and an a2a-sdk it starts with), every file checked against its hash and
# nothing resolved at build time; a pinned pip first (Debian's pip 23 builds sdists with the legacy
# `setup.py install`). kernel/check-venv.sh then fails the build unless `iac-code a2a` can start. pip and
# setuptools (the venv's own, not in the lock) are removed after the check: nothing runs them at run time, and the
# check runs again without them.
RUN --mount=type=cache,target=/root/.cache/pip \
    --mount=type=bind,source=kernel,target=/tmp/kernel \
    python3 -m venv /opt/iac-code \
 && /opt/iac-code/bin/pip install --disable-pip-version-check --upgrade pip==26.3 \
 && /opt/iac-code/bin/pip install --disable-pip-version-check --require-hashes --no-deps \
      -r /tmp/kernel/requirements.txt \
 && /tmp/kernel/check-venv.sh /opt/iac-code \
 && /opt/iac-code/bin/python -m pip uninstall --disable-pip-version-check --yes pip setuptools \
 && /tmp/kernel/check-venv.sh /opt/iac-code

# ---- agentcore: gateway + kernel, one container listening on 0.0.0.0:8080 (AgentCore's contract).
FROM gateway AS agentcore
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=iac-code-kernel /opt/iac-code /opt/iac-code
# The same check on this image's own Python, which the copied environment links to.
RUN --mount=type=bind,source=kernel,target=/tmp/kernel /tmp/kernel/check-venv.sh /opt/iac-code
ENV PATH=/opt/iac-code/bin:$PATH \
    IAC_CODE_AGUI_UPSTREAM=auto
USER 1000:1000
