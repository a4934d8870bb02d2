import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GLIBC_MALLOC_ENV, IMAGE_MALLOC_CONF, IMAGE_NODE_OPTIONS } from '../../bench/support/bench-processes';
import { findFreeLoopbackPort } from '../../src/a2a/managed/free-loopback-port';
import { KERNEL_VENV } from '../support/real-kernel';
import { eventually } from '../support/sse-client';
import { REPO_ROOT } from './support/helm';
import { type ImageConfig, parseDockerfile, resolveTarget } from './support/parse-dockerfile';

const dockerfileText = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const dockerfile = parseDockerfile(dockerfileText);
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const targets: { name: string; image: ImageConfig }[] = ['gateway', 'agentcore'].map((name) => ({
  name,
  image: resolveTarget(dockerfile, name),
}));

/** The RUN instructions of one stage (not of the stages it is built FROM). */
const stageRuns = (name: string) =>
  (dockerfile.stages.find((stage) => stage.name === name)?.instructions ?? [])
    .filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.args);

/** `.dockerignore` patterns, comments dropped. */
const dockerignore = fs
  .readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

describe('Dockerfile contract', () => {
  it('has the build, prod-deps, gateway and agentcore stages', () => {
    expect(dockerfile.stages.map((stage) => stage.name)).toEqual(
      expect.arrayContaining(['build', 'prod-deps', 'gateway', 'agentcore']),
    );
  });

  it('demo: the gateway image plus the demo build only, started with the demo agent; the production targets copy no demo code', () => {
    const demo = dockerfile.stages.find((stage) => stage.name === 'demo');
    expect(demo?.from).toBe('gateway');
    const copies = (demo?.instructions ?? []).filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(['--from=build-demo /src/dist/demo-kernel ./dist/demo-kernel']);
    expect(resolveTarget(dockerfile, 'demo').env.IAC_CODE_AGUI_UPSTREAM).toBe('demo');
    expect(stageRuns('build-demo')).toEqual(['npm run build:demo']);
    expect(stageRuns('build')).toEqual(expect.arrayContaining(['npm run build']));
    for (const { image } of targets) expect(image.env.IAC_CODE_AGUI_UPSTREAM).not.toBe('demo');
  });

  it.each(targets)('$name: runs as a numeric non-root user (so runAsNonRoot can verify it)', ({ image }) => {
    expect(image.user).toMatch(/^[1-9]\d*(:\d+)?$/);
  });

  it.each(targets)('$name: listens on 0.0.0.0:8080 and exposes 8080', ({ image }) => {
    expect(image.env).toMatchObject({ IAC_CODE_AGUI_HOST: '0.0.0.0', IAC_CODE_AGUI_PORT: '8080' });
    expect(image.exposedPorts).toEqual(['8080']);
  });

  it.each(targets)('$name: NODE_ENV=production and the state directory is a declared volume', ({ image }) => {
    expect(image.env.NODE_ENV).toBe('production');
    // The bench starts the gateway with the same flags, so its memory figures are the image's (docs/benchmarks.md).
    expect(image.env.NODE_OPTIONS).toBe(IMAGE_NODE_OPTIONS);
    expect(image.env.IAC_CODE_AGUI_STATE_DIR).toBe('/var/lib/agui');
    expect(image.volumes).toEqual(['/var/lib/agui']);
  });

  it('npm start (glibc, no image) gives the service the glibc settings and the V8 flag the memory figures were measured with', () => {
    const start = packageJson.scripts.start;
    for (const [name, value] of Object.entries(GLIBC_MALLOC_ENV))
      expect(start).toContain(` ${name}=${value} `);
    expect(start).toMatch(
      new RegExp(`node --expose-gc ${IMAGE_NODE_OPTIONS} dist/demo-kernel/demo-main\\.js$`),
    );
  });

  it.each(targets)('$name: tini is PID 1 and runs the production start command', ({ image }) => {
    expect(image.entrypoint).toEqual(['/usr/bin/tini', '--']);
    // --expose-gc on the command line is what turns the memory reclaimer on (docs/behaviour/bounds.md).
    expect(image.cmd).toEqual(['node', '--expose-gc', 'dist/main.js']);
    expect(image.cmd?.join(' ')).toBe(packageJson.scripts['start:prod']);
    expect(image.runs.some((run) => /apt-get install .*\btini\b/.test(run))).toBe(true);
  });

  it.each(targets)(
    '$name: the base image is the Node 24 slim image of the version the tests run on',
    ({ image }) => {
      const nodeVersion = packageJson.devDependencies.node;
      expect(nodeVersion).toMatch(/^24\.\d+\.\d+$/);
      expect(image.baseImage).toMatch(/^node:24\.\d+\.\d+-(bookworm|trixie)-slim(@sha256:[a-f0-9]{64})?$/);
      expect(image.baseImage.startsWith(`node:${nodeVersion}-`)).toBe(true);
    },
  );

  it('no stage uses a latest or untagged image', () => {
    for (const stage of dockerfile.stages) {
      const isStageName = dockerfile.stages.some((other) => other.name === stage.from);
      if (isStageName) continue;
      expect(stage.from).toMatch(/:[^:/]+$/);
      expect(stage.from).not.toMatch(/:latest(@|$)/);
    }
  });

  it.each(targets)(
    '$name: HEALTHCHECK asks /ping with node itself (no curl in a slim image)',
    ({ image }) => {
      expect(image.healthcheck?.command.slice(0, 2)).toEqual(['node', '-e']);
      expect(image.healthcheck?.command[2]).toContain('/ping');
      expect(image.healthcheck?.options).toMatch(/--interval=\d+s/);
    },
  );

  it('the final images get production dependencies only, installed for the target platform', () => {
    const prodDeps = dockerfile.stages.find((stage) => stage.name === 'prod-deps');
    const install = prodDeps?.instructions.find((i) => i.keyword === 'RUN' && i.args.includes('npm ci'));
    expect(install?.args).toContain('--omit=dev');
    // sharp's native binary is an optional dependency per platform: npm must pick the target's, not the builder's.
    expect(install?.args).toMatch(/--os=linux --cpu="\$npm_cpu" --libc=glibc/);
    expect(install?.args).toMatch(/amd64\) npm_cpu=x64/);
    expect(install?.args).toMatch(/arm64\) npm_cpu=arm64/);
    const gatewayCopies = dockerfile.stages
      .find((stage) => stage.name === 'gateway')
      ?.instructions.filter((i) => i.keyword === 'COPY')
      .map((i) => i.args);
    expect(gatewayCopies).toEqual([
      '--from=prod-deps /app/node_modules ./node_modules',
      '--from=build /src/dist ./dist',
      'package.json ./',
    ]);
  });

  it('agentcore adds the iac-code kernel on PATH and lets upstream auto find it', () => {
    const agentcore = targets.find((t) => t.name === 'agentcore')?.image;
    expect(agentcore?.env.IAC_CODE_AGUI_UPSTREAM).toBe('auto');
    expect(agentcore?.env.PATH).toMatch(/^\/opt\/iac-code\/bin:/);
  });

  it('the kernel stage installs exactly the hash-locked set, after a pinned pip, and checks that it starts', () => {
    // The lock decides the version: no build argument can pick another one.
    expect(Object.keys(dockerfile.globalArgs)).toEqual(['NODE_IMAGE']);
    const install = stageRuns('iac-code-kernel').find((run) => run.includes('requirements.txt')) ?? '';
    expect(install).toContain('--mount=type=bind,source=kernel,target=/tmp/kernel');
    const steps = install.split('&&').map((step) => step.trim());
    expect(steps).toEqual([
      expect.stringMatching(/python3 -m venv \/opt\/iac-code$/),
      expect.stringMatching(/^\/opt\/iac-code\/bin\/pip install .*--upgrade pip==\d+\.\d+(\.\d+)?$/),
      expect.stringMatching(
        /^\/opt\/iac-code\/bin\/pip install .*--require-hashes --no-deps\s+-r \/tmp\/kernel\/requirements\.txt$/,
      ),
      '/tmp/kernel/check-venv.sh /opt/iac-code',
      // pip and setuptools (not in the lock) leave the runtime venv, and the kernel is checked without them.
      expect.stringMatching(/^\/opt\/iac-code\/bin\/python -m pip uninstall .*--yes pip setuptools$/),
      '/tmp/kernel/check-venv.sh /opt/iac-code',
    ]);
    // The final image checks again, on its own Python, which the copied environment links to.
    expect(stageRuns('agentcore')).toContainEqual(
      '--mount=type=bind,source=kernel,target=/tmp/kernel /tmp/kernel/check-venv.sh /opt/iac-code',
    );
  });

  it('kernel/requirements.txt pins every package with hashes: iac-code 0.16.0 with an a2a-sdk it starts with', () => {
    const lock = fs.readFileSync(path.join(REPO_ROOT, 'kernel', 'requirements.txt'), 'utf8');
    const requirements = lock.split(/\n(?=\S)/).filter((entry) => !entry.startsWith('#') && entry.trim());
    expect(requirements.length).toBeGreaterThan(20);
    for (const entry of requirements) {
      expect(entry).toMatch(/^[A-Za-z0-9._-]+(\[[^\]]+\])?==[^\s]+ \\\n\s+--hash=sha256:[a-f0-9]{64}/);
    }
    const pinned = (name: string) => new RegExp(`^${name}==(\\S+)`, 'm').exec(lock)?.[1];
    expect(pinned('iac-code')).toBe('0.16.0');
    // iac-code 0.16.0 imports encode_page_token, which a2a-sdk 1.2.1 and later no longer have.
    const [major, minor, patch] = (pinned('a2a-sdk') ?? '').split('.').map(Number);
    expect(major * 1e6 + minor * 1e3 + patch).toBeLessThan(1_002_001);
  });

  it('kernel/check-venv.sh runs the CLI and imports every kernel module, not only `iac-code a2a --help`', () => {
    const check = fs.readFileSync(path.join(REPO_ROOT, 'kernel', 'check-venv.sh'), 'utf8');
    expect(check).toMatch(/^set -eu$/m);
    expect(check).toContain('"$venv/bin/iac-code" a2a --help');
    expect(check).toContain('check_imports.py');
    expect(fs.statSync(path.join(REPO_ROOT, 'kernel', 'check-venv.sh')).mode & 0o111).not.toBe(0);
  });

  it('kernel/check_imports.py fails on a kernel module that does not import, and passes when all do', () => {
    // A stand-in iac_code.a2a package: a drifted a2a-sdk breaks the task store exactly like this.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-check-imports-'));
    const a2a = path.join(root, 'iac_code', 'a2a');
    fs.mkdirSync(a2a, { recursive: true });
    fs.writeFileSync(path.join(root, 'iac_code', '__init__.py'), '');
    fs.writeFileSync(path.join(a2a, '__init__.py'), '');
    fs.writeFileSync(path.join(a2a, 'app.py'), 'VALUE = 1\n');
    const checkImports = () =>
      spawnSync('python3', [path.join(REPO_ROOT, 'kernel', 'check_imports.py')], {
        env: { ...process.env, PYTHONPATH: root },
        encoding: 'utf8',
      });
    expect(checkImports().status).toBe(0);

    fs.writeFileSync(
      path.join(a2a, 'task_store.py'),
      "raise ImportError(\"cannot import name 'encode_page_token' from 'a2a.utils'\")\n",
    );
    const broken = checkImports();
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('iac_code.a2a.task_store: ImportError');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('kernel/check-venv.sh passes on the locked venv the tests use', () => {
    const result = spawnSync(path.join(REPO_ROOT, 'kernel', 'check-venv.sh'), [KERNEL_VENV], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('no `# syntax=` line (no frontend image pull); npm and pip download into cache mounts', () => {
    expect(dockerfileText).not.toMatch(/^#\s*syntax=/m);
    const installs = dockerfile.stages.flatMap((stage) =>
      stage.instructions.filter((i) => i.keyword === 'RUN' && /npm ci|pip install/.test(i.args)),
    );
    expect(installs.length).toBeGreaterThanOrEqual(3);
    for (const { args } of installs) {
      expect(args).toMatch(/--mount=type=cache,target=\/root\/\.(npm|cache\/pip)/);
      expect(args).not.toMatch(/--no-cache-dir|npm cache clean/);
    }
  });

  it.each(targets)(
    '$name: no package manager is left (npm, npx, corepack, yarn), and the build proves it',
    ({ image }) => {
      const removal = image.runs.find((run) => run.startsWith('rm -rf /usr/local/lib/node_modules')) ?? '';
      for (const path of [
        '/usr/local/bin/npm',
        '/usr/local/bin/npx',
        '/usr/local/bin/corepack',
        '/usr/local/bin/yarn',
        '/opt/yarn-v*',
      ]) {
        expect(removal).toContain(path);
      }
      expect(removal).toMatch(/for tool in npm npx corepack yarn yarnpkg; do .*command -v "\$tool".*exit 1/);
    },
  );

  it('docs/deployment.md and the Dockerfile header build each target for the same platforms; agentcore includes arm64', () => {
    const readme = fs
      .readFileSync(path.join(REPO_ROOT, 'docs', 'deployment.md'), 'utf8')
      .replace(/\\\n\s*/g, ' ');
    const header = dockerfileText
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    const platforms = (text: string) => {
      const byTarget = new Map<string, Set<string>>();
      for (const [, list, target] of text.matchAll(
        /docker buildx build --platform (\S+)\s+--target (\S+)/g,
      )) {
        const set = byTarget.get(target) ?? new Set<string>();
        for (const platform of list.split(',')) set.add(platform);
        byTarget.set(target, set);
      }
      return Object.fromEntries([...byTarget].map(([target, set]) => [target, [...set].sort()]));
    };
    expect(platforms(header)).toEqual({
      gateway: ['linux/amd64', 'linux/arm64'],
      agentcore: ['linux/amd64', 'linux/arm64'],
    });
    expect(platforms(readme)).toEqual(platforms(header));
  });

  it.each(targets)(
    '$name: jemalloc is the allocator, preloaded from a path that exists on both architectures',
    ({ image }) => {
      const library = image.env.LD_PRELOAD;
      expect(library).toBe('/usr/local/lib/libjemalloc.so.2');
      // Without its background thread jemalloc purges freed pages only while allocating: not when idle.
      expect(image.env.MALLOC_CONF).toContain('background_thread:true');
      // The fuzz's jemalloc figures were measured with exactly these (docs/benchmarks.md).
      expect(image.env.MALLOC_CONF).toBe(IMAGE_MALLOC_CONF);
      const install = image.runs.find((run) => /apt-get install .*\blibjemalloc2\b/.test(run)) ?? '';
      expect(install).toContain(`ln -s "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" ${library}`);
      expect(install).toContain(`test -e ${library}`);
    },
  );

  /** The gateway stage's compile-cache warm-up: a start of its own (src/warm-compile-cache.ts), with node flags. */
  const WARM_STEP = /^node ((?:--[\w-]+(?:=\S+)? )*)dist\/warm-compile-cache\.js$/;

  it("gateway: Node's compile cache is warmed by a start with CMD's node flags, as the runtime user (one cache per user id), then read-only", () => {
    const gateway = resolveTarget(dockerfile, 'gateway');
    const cacheDir = gateway.env.NODE_COMPILE_CACHE;
    expect(cacheDir).toMatch(/^\/app\//);
    const steps = dockerfile.stages.find((stage) => stage.name === 'gateway')?.instructions ?? [];
    const warm = steps.findIndex((step) => step.keyword === 'RUN' && WARM_STEP.test(step.args));
    const userAt = (index: number) =>
      steps
        .slice(0, index)
        .filter((step) => step.keyword === 'USER')
        .at(-1)?.args;
    expect(warm).toBeGreaterThan(0);
    expect(userAt(warm)).toBe(gateway.user);
    // V8's flags key the cache's directory: a warm-up without CMD's --expose-gc fills one the start never reads.
    const warmFlags = (WARM_STEP.exec(steps[warm].args)?.[1] ?? '').split(' ').filter(Boolean);
    expect(warmFlags).toEqual(gateway.cmd?.slice(1, -1));
    const lock = steps.findIndex(
      (step, index) => index > warm && /chmod -R a\+rX,a-w "\$NODE_COMPILE_CACHE"/.test(step.args),
    );
    expect(lock).toBeGreaterThan(warm);
    expect(userAt(lock)).toBe('root');
  });

  // Runs the gateway stage's own warm and lock steps on this machine (no Docker engine here), then the image's
  // CMD: as root, so the lock can chown to root, and the warm-up and the start as the runtime user, uid 1000.
  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    "gateway: the image's start, as the runtime user, reads every module it loads from the compile cache the build warmed",
    async () => {
      const gateway = resolveTarget(dockerfile, 'gateway');
      const warm = stageRuns('gateway').find((run) => WARM_STEP.test(run)) ?? '';
      const lock = stageRuns('gateway').find((run) => /chmod -R .*"\$NODE_COMPILE_CACHE"/.test(run)) ?? '';
      const [uid, gid] = (gateway.user ?? '').split(':').map(Number);
      if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'warm-compile-cache.js'))) {
        const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
        expect(build.status).toBe(0);
      }
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-compile-cache-'));
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-compile-cache-state-'));
      for (const dir of [cache, stateDir]) fs.chownSync(dir, uid, gid);
      const node = path.join(REPO_ROOT, 'node_modules', 'node', 'bin', 'node');
      // The image's environment for node (glibc here: no jemalloc on this machine).
      const env = {
        PATH: process.env.PATH,
        NODE_ENV: gateway.env.NODE_ENV,
        NODE_OPTIONS: gateway.env.NODE_OPTIONS,
        NODE_COMPILE_CACHE: cache,
      };
      try {
        const warmed = spawnSync('sh', ['-c', warm.replace(/^node /, `"${node}" `)], {
          cwd: REPO_ROOT,
          uid,
          gid,
          env,
          encoding: 'utf8',
        });
        expect({ status: warmed.status, stderr: warmed.stderr }).toMatchObject({ status: 0 });
        const locked = spawnSync('sh', ['-c', lock], { env: { ...process.env, NODE_COMPILE_CACHE: cache } });
        expect(locked.status).toBe(0);

        // CMD as it is, on a free loopback port, with a kernel URL a start does not call; asked /ping as the
        // image's health check asks it, then stopped as a container is.
        const port = await findFreeLoopbackPort();
        const [, ...args] = gateway.cmd ?? [];
        const start = spawn(node, args, {
          cwd: REPO_ROOT,
          uid,
          gid,
          env: {
            ...env,
            NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
            IAC_CODE_AGUI_HOST: '127.0.0.1',
            IAC_CODE_AGUI_PORT: String(port),
            IAC_CODE_AGUI_STATE_DIR: stateDir,
            IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
            IAC_CODE_AGUI_A2A_URL: 'http://127.0.0.1:9/',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        start.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
        const pinged = await eventually(
          () =>
            fetch(`http://127.0.0.1:${port}/ping`).then(
              (response) => response.ok,
              () => false,
            ),
          (ok) => ok || start.exitCode !== null,
          60_000,
        );
        start.kill('SIGTERM');
        expect({ pinged, exitCode: await exited }).toEqual({ pinged: true, exitCode: 0 });

        // A cache that does not fit is said in words (a size or hash mismatch, V8 rejecting it). Node's debug
        // output can miss the outcome of a read (another module's message comes between, or the process is
        // stopping): 2 of 1,928 reads in one CI run. A cache keyed or written wrong is read by none, so almost
        // every read must end in a hit.
        const reads = stderr
          .split('[compile cache]')
          .filter((message) => message.includes('reading cache from'));
        const hits = stderr.match(/success, size=\d+/g) ?? [];
        expect(stderr.match(/[^\n]*(mismatch|was rejected)[^\n]*/g) ?? []).toEqual([]);
        expect(hits.length).toBeGreaterThanOrEqual(reads.length - Math.ceil(reads.length / 100));
        // main.js itself, Nest's HTTP stack, and the app's modules are among them.
        expect(reads.some((line) => line.includes(`${REPO_ROOT}/dist/main.js...`))).toBe(true);
        expect(reads.some((line) => line.includes('/@nestjs/platform-express/'))).toBe(true);
        expect(reads.filter((line) => line.includes(`${REPO_ROOT}/dist/`)).length).toBeGreaterThan(50);
      } finally {
        for (const dir of [cache, stateDir]) fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );

  it.each([
    { stage: 'build', tree: 'dist' },
    { stage: 'prod-deps', tree: 'node_modules' },
  ])(
    '$stage: its own step removes declarations, source maps and @types/* from $tree, and nothing a start loads',
    ({ stage, tree }) => {
      const strip = stageRuns(stage).find((run) => run.includes('-delete')) ?? '';
      expect(strip).toContain(`find ${tree} `);
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-runtime-files-'));
      const kept = [
        'main.js',
        'pkg/index.js',
        'pkg/index.mjs',
        'pkg/index.cjs',
        'pkg/package.json',
        'pkg/map.js',
        'pkg/maps/index.json',
        'pkg/types/standard.js',
      ];
      const removed = [
        'main.d.ts',
        'main.js.map',
        'main.d.ts.map',
        'pkg/index.d.mts',
        'pkg/index.d.cts',
        'pkg/index.mjs.map',
        'pkg/index.cjs.map',
        ...(tree === 'node_modules' ? ['@types/node/package.json', '@types/node/index.d.ts'] : []),
      ];
      try {
        for (const file of [...kept, ...removed]) {
          fs.mkdirSync(path.dirname(path.join(root, tree, file)), { recursive: true });
          fs.writeFileSync(path.join(root, tree, file), '');
        }
        expect(spawnSync('sh', ['-c', strip], { cwd: root }).status).toBe(0);
        const left = fs
          .readdirSync(path.join(root, tree), { recursive: true, encoding: 'utf8' })
          .filter((file) => fs.statSync(path.join(root, tree, file)).isFile())
          .sort();
        expect(left).toEqual([...kept].sort());
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it('the runtime image copies dist/ and node_modules from the stages that strip them', () => {
    const copies = (dockerfile.stages.find((stage) => stage.name === 'gateway')?.instructions ?? [])
      .filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => instruction.args);
    expect(copies).toEqual(
      expect.arrayContaining([
        '--from=prod-deps /app/node_modules ./node_modules',
        '--from=build /src/dist ./dist',
      ]),
    );
  });

  it.each(['node_modules', 'dist', 'test', '.git'])('.dockerignore excludes %s', (entry) => {
    expect(dockerignore).toContain(entry);
  });
});
