import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './support/helm';
import { type ImageConfig, parseDockerfile, resolveTarget } from './support/parse-dockerfile';

const dockerfile = parseDockerfile(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const targets: { name: string; image: ImageConfig }[] = ['gateway', 'agentcore'].map((name) => ({
  name,
  image: resolveTarget(dockerfile, name),
}));

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

  it.each(targets)('$name: runs as a numeric non-root user (so runAsNonRoot can verify it)', ({ image }) => {
    expect(image.user).toMatch(/^[1-9]\d*(:\d+)?$/);
  });

  it.each(targets)('$name: listens on 0.0.0.0:8080 and exposes 8080', ({ image }) => {
    expect(image.env).toMatchObject({ IAC_CODE_AGUI_HOST: '0.0.0.0', IAC_CODE_AGUI_PORT: '8080' });
    expect(image.exposedPorts).toEqual(['8080']);
  });

  it.each(targets)('$name: NODE_ENV=production and the state directory is a declared volume', ({ image }) => {
    expect(image.env.NODE_ENV).toBe('production');
    expect(image.env.IAC_CODE_AGUI_STATE_DIR).toBe('/var/lib/agui');
    expect(image.volumes).toEqual(['/var/lib/agui']);
  });

  it.each(targets)('$name: tini is PID 1 and runs the production start command', ({ image }) => {
    expect(image.entrypoint).toEqual(['/usr/bin/tini', '--']);
    expect(image.cmd).toEqual(['node', 'dist/main.js']);
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

  it('agentcore adds the pinned iac-code kernel on PATH and lets upstream auto find it', () => {
    const agentcore = targets.find((t) => t.name === 'agentcore')?.image;
    expect(agentcore?.env.IAC_CODE_AGUI_UPSTREAM).toBe('auto');
    expect(agentcore?.env.PATH).toMatch(/^\/opt\/iac-code\/bin:/);
    expect(dockerfile.globalArgs.IAC_CODE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const kernel = dockerfile.stages.find((stage) => stage.name === 'iac-code-kernel');
    expect(kernel?.instructions.map((i) => i.args).join('\n')).toContain(
      'pip install --no-cache-dir "iac-code[a2a]==${IAC_CODE_VERSION}"',
    );
  });

  it.each(['node_modules', 'dist', 'test', '.git'])('.dockerignore excludes %s', (entry) => {
    expect(dockerignore).toContain(entry);
  });
});
