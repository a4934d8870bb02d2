import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/load-config';
import {
  CHART_DIR,
  REPO_ROOT,
  type RenderOptions,
  VALUES_ALL_ON,
  renderChart,
  runHelm,
} from './support/helm';
import {
  type ConfigMap,
  type Deployment,
  type K8sObject,
  type Secret,
  allContainers,
  containerNamed,
  ofKind,
  onlyOfKind,
  secretValues,
} from './support/k8s-manifests';

/** The variables the service reads: the property names of EnvironmentDto (docs/architecture.md#decisions). */
const SERVICE_VARIABLES = new Set(
  [
    ...fs
      .readFileSync(path.join(REPO_ROOT, 'src', 'config', 'environment.dto.ts'), 'utf8')
      .matchAll(/\b(IAC_CODE_[A-Z0-9_]+|IACCODE_[A-Z0-9_]+)\?:/g),
  ].map((match) => match[1]),
);
const SECRET_VARIABLES = ['IAC_CODE_AGUI_AUTH_TOKEN', 'IAC_CODE_AGUI_A2A_TOKEN', 'IAC_CODE_AGUI_REDIS_URL'];

const HOST = { cwd: '/app', homeDir: '/home/node', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };

const scenarioOptions = {
  defaults: {},
  allOn: { valuesFiles: [VALUES_ALL_ON] },
  kernelAsContainer: { set: ['kernel.nativeSidecar=false'] },
  noKernel: {
    set: [
      'kernel.enabled=false',
      'config.a2aUrl=http://kernel.agents.svc:9100',
      'config.a2aAllowRemote=true',
      'persistence.enabled=false',
    ],
  },
} satisfies Record<string, RenderOptions>;
type ScenarioName = keyof typeof scenarioOptions;
const scenarioNames = Object.keys(scenarioOptions) as ScenarioName[];
const rendered = new Map<ScenarioName, K8sObject[]>();

/** Rendered once per scenario (helm is a separate process); the tests only read the manifests. */
function scenario(name: ScenarioName): K8sObject[] {
  const manifests = rendered.get(name) ?? renderChart(scenarioOptions[name]);
  rendered.set(name, manifests);
  return manifests;
}

const kinds = (manifests: readonly K8sObject[]) => [...new Set(manifests.map((m) => m.kind))].sort();

/** The environment the gateway container gets: its ConfigMap plus the Secret values it references. */
function gatewayEnvironment(manifests: readonly K8sObject[]): Record<string, string> {
  const deployment = onlyOfKind<Deployment>(manifests, 'Deployment');
  const gateway = containerNamed(deployment, 'gateway');
  const configMapName = gateway.envFrom?.find((source) => source.configMapRef)?.configMapRef?.name;
  const configMap = ofKind<ConfigMap>(manifests, 'ConfigMap').find((c) => c.metadata.name === configMapName);
  if (!configMap) throw new Error(`the gateway's ConfigMap ${configMapName} is not rendered`);
  const environment: Record<string, string> = { ...configMap.data };
  for (const variable of gateway.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (variable.value !== undefined) environment[variable.name] = variable.value;
    if (!ref) continue;
    const secret = ofKind<Secret>(manifests, 'Secret').find((s) => s.metadata.name === ref.name);
    const value = secret ? secretValues(secret)[ref.key] : undefined;
    if (value === undefined) throw new Error(`${variable.name}: ${ref.name}/${ref.key} is not rendered`);
    environment[variable.name] = value;
  }
  return environment;
}

describe('helm chart helm/agui-a2a-gateway', () => {
  it.each([
    { name: 'defaults', args: [] as string[] },
    { name: 'every option on', args: ['--values', VALUES_ALL_ON] },
  ])('helm lint --strict passes with $name', ({ args }) => {
    const result = runHelm(['lint', '--strict', CHART_DIR, ...args]);
    expect(result.stderr).not.toMatch(/\[(WARNING|ERROR)\]/);
    expect(result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it.each([
    {
      name: 'defaults',
      scenarioName: 'defaults' as ScenarioName,
      expected: [
        'ConfigMap',
        'Deployment',
        'NetworkPolicy',
        'PersistentVolumeClaim',
        'Secret',
        'Service',
        'ServiceAccount',
      ],
    },
    {
      name: 'every option on',
      scenarioName: 'allOn' as ScenarioName,
      expected: [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'NetworkPolicy',
        'PersistentVolumeClaim',
        'PodDisruptionBudget',
        'Secret',
        'Service',
        'ServiceAccount',
        'ServiceMonitor',
      ],
    },
    {
      name: 'no kernel, no token, no persistence: no Secret and no PVC',
      scenarioName: 'noKernel' as ScenarioName,
      expected: ['ConfigMap', 'Deployment', 'NetworkPolicy', 'Service', 'ServiceAccount'],
    },
  ])('renders exactly these kinds: $name', ({ scenarioName, expected }) => {
    expect(kinds(scenario(scenarioName))).toEqual(expected);
  });

  it.each(scenarioNames)(
    '%s: every container runs restricted (non-root, read-only root, no escalation, no capabilities, RuntimeDefault)',
    (name) => {
      const deployment = onlyOfKind<Deployment>(scenario(name), 'Deployment');
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      const containers = allContainers(deployment);
      expect(containers.length).toBeGreaterThan(0);
      for (const container of containers) {
        expect({ name: container.name, securityContext: container.securityContext }).toEqual({
          name: container.name,
          securityContext: {
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          },
        });
      }
    },
  );

  it.each(scenarioNames)(
    '%s: images are pinned (a tag that is not latest, or a digest) and resources are set',
    (name) => {
      for (const container of allContainers(onlyOfKind<Deployment>(scenario(name), 'Deployment'))) {
        expect(container.image).toMatch(/^[^:@\s]+(?::[\w][\w.-]*|@sha256:[a-f0-9]{64})$/);
        expect(container.image).not.toMatch(/:latest$/);
        expect(Object.keys(container.resources?.requests ?? {})).toEqual(
          expect.arrayContaining(['cpu', 'memory']),
        );
        expect(container.resources?.limits?.memory).toBeDefined();
      }
    },
  );

  it('defaults take the image tags from appVersion: the gateway target and its -agentcore sibling for the kernel', () => {
    const deployment = onlyOfKind<Deployment>(scenario('defaults'), 'Deployment');
    expect(containerNamed(deployment, 'gateway').image).toBe('agui-a2a-gateway:0.1.0');
    expect(containerNamed(deployment, 'iac-code-kernel').image).toBe('agui-a2a-gateway:0.1.0-agentcore');
  });

  it.each(scenarioNames)(
    '%s: liveness on /health, readiness on /health/ready, both on the http port',
    (name) => {
      const gateway = containerNamed(onlyOfKind<Deployment>(scenario(name), 'Deployment'), 'gateway');
      expect(gateway.livenessProbe).toEqual(
        expect.objectContaining({ httpGet: { path: '/health', port: 'http' } }),
      );
      expect(gateway.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(gateway.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    },
  );

  it.each(scenarioNames)(
    '%s: /tmp is a writable emptyDir in every container (the root filesystem is read-only)',
    (name) => {
      const deployment = onlyOfKind<Deployment>(scenario(name), 'Deployment');
      const tmpVolume = deployment.spec.template.spec.volumes.find((volume) => volume.name === 'tmp');
      expect(tmpVolume?.emptyDir).toBeDefined();
      for (const container of allContainers(deployment)) {
        expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
      }
    },
  );

  it('state on a ReadWriteOnce PVC forces strategy Recreate; the claim is the rendered PVC', () => {
    const deployment = onlyOfKind<Deployment>(scenario('defaults'), 'Deployment');
    const pvc = onlyOfKind(scenario('defaults'), 'PersistentVolumeClaim');
    expect(deployment.spec.strategy.type).toBe('Recreate');
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.template.spec.volumes).toContainEqual({
      name: 'state',
      persistentVolumeClaim: { claimName: pvc.metadata.name },
    });
    expect(containerNamed(deployment, 'gateway').volumeMounts).toContainEqual({
      name: 'state',
      mountPath: '/var/lib/agui',
    });
  });

  it('without persistence the state is an emptyDir of persistence.size and the rollout is RollingUpdate', () => {
    const deployment = onlyOfKind<Deployment>(scenario('noKernel'), 'Deployment');
    expect(deployment.spec.strategy.type).toBe('RollingUpdate');
    expect(deployment.spec.template.spec.volumes).toContainEqual({
      name: 'state',
      emptyDir: { sizeLimit: '1Gi' },
    });
  });

  it.each([
    { name: 'defaults', scenarioName: 'defaults' as ScenarioName, grace: 55 },
    { name: 'every option on (explicit 90 s)', scenarioName: 'allOn' as ScenarioName, grace: 90 },
  ])(
    '$name: terminationGracePeriodSeconds exceeds IAC_CODE_AGUI_DRAIN_SECONDS',
    ({ scenarioName, grace }) => {
      const manifests = scenario(scenarioName);
      const drain = Number(gatewayEnvironment(manifests).IAC_CODE_AGUI_DRAIN_SECONDS);
      const period = onlyOfKind<Deployment>(manifests, 'Deployment').spec.template.spec
        .terminationGracePeriodSeconds;
      expect(period).toBe(grace);
      expect(period).toBeGreaterThan(drain);
    },
  );

  it('an explicit terminationGracePeriodSeconds not above the drain is refused', () => {
    const result = runHelm(['template', 'release', CHART_DIR, '--set', 'terminationGracePeriodSeconds=30']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'terminationGracePeriodSeconds (30) must exceed config.drainSeconds (30)',
    );
  });

  it.each(scenarioNames)(
    '%s: the ConfigMap holds only variables of the environment table and no secret',
    (name) => {
      for (const configMap of ofKind<ConfigMap>(scenario(name), 'ConfigMap')) {
        const keys = Object.keys(configMap.data);
        expect(keys.filter((key) => !SERVICE_VARIABLES.has(key))).toEqual([]);
        expect(keys.filter((key) => SECRET_VARIABLES.includes(key))).toEqual([]);
      }
    },
  );

  it('the inline secrets of the all-on values appear in the Secret only, never in a ConfigMap', () => {
    const configMaps = JSON.stringify(ofKind(scenario('allOn'), 'ConfigMap'));
    for (const secret of [
      'test-auth-token',
      'test-a2a-token',
      'redis://:password@redis.example.com:6379/0',
    ]) {
      expect(configMaps).not.toContain(secret);
    }
    expect(secretValues(onlyOfKind<Secret>(scenario('allOn'), 'Secret'))).toEqual({
      'auth-token': 'test-auth-token',
      'a2a-token': 'test-a2a-token',
      'redis-url': 'redis://:password@redis.example.com:6379/0',
    });
  });

  it.each([
    {
      name: 'defaults',
      scenarioName: 'defaults' as ScenarioName,
      expected: {
        host: '0.0.0.0',
        port: 8080,
        stateDir: '/var/lib/agui',
        drainMs: 30_000,
        allowedCwdRoots: ['/workspace'],
      },
    },
    {
      name: 'every option on',
      scenarioName: 'allOn' as ScenarioName,
      expected: {
        host: '::',
        port: 8080,
        authToken: 'test-auth-token',
        drainMs: 45_000,
        heartbeatMs: 10_000,
        wsMissedPongLimit: 3,
        reattach: expect.objectContaining({ graceMs: 60_000 }),
        sessionBinding: true,
        principalUserId: 'match',
        jwt: expect.objectContaining({ principalClaim: 'email' }),
        playground: true,
        allowedCwdRoots: ['/workspace', '/tmp'],
        store: {
          kind: 'redis',
          redisUrl: 'redis://:password@redis.example.com:6379/0',
          keyPrefix: 'agui-test:',
          tls: true,
          leaseTtlMs: 20_000,
          allowVolatile: true,
        },
        upstream: {
          mode: 'auto',
          a2aUrl: 'http://127.0.0.1:9100/',
          a2aToken: 'test-a2a-token',
          allowRemote: false,
        },
      },
    },
    {
      name: 'an external kernel instead of the sidecar',
      scenarioName: 'noKernel' as ScenarioName,
      expected: {
        upstream: {
          mode: 'auto',
          a2aUrl: 'http://kernel.agents.svc:9100',
          a2aToken: undefined,
          allowRemote: true,
        },
      },
    },
  ])(
    '$name: the gateway environment passes the service configuration validation',
    ({ scenarioName, expected }) => {
      expect(loadConfig(gatewayEnvironment(scenario(scenarioName)), HOST)).toMatchObject(expected);
    },
  );

  it('the kernel sidecar listens on loopback with its token from the Secret the gateway also reads', () => {
    const manifests = scenario('defaults');
    const deployment = onlyOfKind<Deployment>(manifests, 'Deployment');
    const kernel = containerNamed(deployment, 'iac-code-kernel');
    const gateway = containerNamed(deployment, 'gateway');
    // A native sidecar: starts before the gateway and stops after it, so draining runs keep their kernel.
    expect(deployment.spec.template.spec.initContainers?.map((c) => c.name)).toEqual(['iac-code-kernel']);
    expect(kernel.restartPolicy).toBe('Always');
    expect(kernel.args).toEqual([
      'iac-code',
      'a2a',
      '--host',
      '127.0.0.1',
      '--port',
      '8765',
      '--thinking-exposure',
      'all',
    ]);
    expect(kernel.ports).toBeUndefined();
    const kernelToken = kernel.env?.find((v) => v.name === 'IACCODE_A2A_HTTP_TOKEN')?.valueFrom?.secretKeyRef;
    const gatewayToken = gateway.env?.find((v) => v.name === 'IAC_CODE_AGUI_A2A_TOKEN')?.valueFrom
      ?.secretKeyRef;
    expect(kernelToken).toEqual({ name: 'release-agui-a2a-gateway', key: 'a2a-token' });
    expect(gatewayToken).toEqual(kernelToken);
    const environment = gatewayEnvironment(manifests);
    expect(environment.IAC_CODE_AGUI_A2A_URL).toBe('http://127.0.0.1:8765/');
    expect(environment.IAC_CODE_AGUI_A2A_TOKEN).toMatch(/^[A-Za-z0-9]{48}$/);
    // The kernel works in the directories the gateway admits as a run's cwd.
    expect(kernel.env).toContainEqual({ name: 'IACCODE_A2A_ALLOWED_CWDS', value: '/workspace' });
    expect(kernel.volumeMounts).toContainEqual({ name: 'workspace', mountPath: '/workspace' });
    expect(gateway.volumeMounts).toContainEqual({ name: 'workspace', mountPath: '/workspace' });
  });

  it('kernel.nativeSidecar=false runs the kernel as an ordinary second container that waits for the gateway', () => {
    const pod = onlyOfKind<Deployment>(scenario('kernelAsContainer'), 'Deployment').spec.template.spec;
    expect(pod.initContainers).toBeUndefined();
    expect(pod.containers.map((c) => c.name)).toEqual(['gateway', 'iac-code-kernel']);
    expect(pod.containers[1].restartPolicy).toBeUndefined();
    // Both get SIGTERM at once: the kernel's preStop holds it while the gateway drains (run in helm-exec-commands).
    expect(pod.containers[1].lifecycle?.preStop?.exec.command.slice(0, 2)).toEqual(['node', '-e']);
    const native = containerNamed(
      onlyOfKind<Deployment>(scenario('defaults'), 'Deployment'),
      'iac-code-kernel',
    );
    expect(native.lifecycle).toBeUndefined();
  });

  it.each(scenarioNames)('%s: every rendered object names the release namespace', (name) => {
    for (const manifest of scenario(name)) {
      expect({ kind: manifest.kind, namespace: manifest.metadata.namespace }).toEqual({
        kind: manifest.kind,
        namespace: 'agents',
      });
    }
  });

  it.each(scenarioNames)(
    '%s: every emptyDir has a sizeLimit and every container ephemeral-storage requests and limits',
    (name) => {
      const deployment = onlyOfKind<Deployment>(scenario(name), 'Deployment');
      const emptyDirs = deployment.spec.template.spec.volumes.filter((volume) => volume.emptyDir);
      expect(emptyDirs.length).toBeGreaterThan(0);
      for (const volume of emptyDirs) expect(volume.emptyDir?.sizeLimit).toMatch(/^\d+(Mi|Gi)$/);
      for (const container of allContainers(deployment)) {
        expect(container.resources?.requests?.['ephemeral-storage']).toBeDefined();
        expect(container.resources?.limits?.['ephemeral-storage']).toBeDefined();
      }
    },
  );

  it("defaults: the containers' ephemeral-storage limits cover every emptyDir filled to its sizeLimit", () => {
    // The kubelet evicts a pod whose emptyDirs and logs exceed the sum of its containers' limits.
    const bytes = (quantity: string | undefined) => {
      const match = /^(\d+)(Mi|Gi)$/.exec(quantity ?? '');
      if (!match) throw new Error(`unexpected quantity ${quantity}`);
      return Number(match[1]) * 2 ** (match[2] === 'Gi' ? 30 : 20);
    };
    const deployment = onlyOfKind<Deployment>(scenario('defaults'), 'Deployment');
    const limits = allContainers(deployment).reduce(
      (sum, container) => sum + bytes(container.resources?.limits?.['ephemeral-storage']),
      0,
    );
    const emptyDirs = deployment.spec.template.spec.volumes
      .filter((volume) => volume.emptyDir)
      .reduce((sum, volume) => sum + bytes(volume.emptyDir?.sizeLimit), 0);
    expect(limits).toBeGreaterThan(emptyDirs);
  });

  it.each(['defaults', 'allOn', 'kernelAsContainer'] as ScenarioName[])(
    '%s: the kernel keeps its config dir (A2A task snapshots) on the state volume, not in an emptyDir',
    (name) => {
      const deployment = onlyOfKind<Deployment>(scenario(name), 'Deployment');
      const kernel = containerNamed(deployment, 'iac-code-kernel');
      const configDir = kernel.env?.find((v) => v.name === 'IAC_CODE_CONFIG_DIR')?.value ?? '';
      const stateDir = gatewayEnvironment(scenario(name)).IAC_CODE_AGUI_STATE_DIR;
      expect(configDir.startsWith(`${stateDir}/`)).toBe(true);
      // The deepest mount holding the config dir is the state volume, the one the gateway's state is on.
      const holder = (kernel.volumeMounts ?? [])
        .filter((mount) => configDir.startsWith(`${mount.mountPath}/`))
        .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
      expect(holder).toEqual({ name: 'state', mountPath: stateDir });
      expect(containerNamed(deployment, 'gateway').volumeMounts).toContainEqual(holder);
      // Its log files grow without rotation: they stay in HOME's size-limited emptyDir, off the state volume.
      expect(kernel.env).toContainEqual({ name: 'IAC_CODE_LOG_DIR', value: '/home/node/logs' });
      expect(kernel.volumeMounts).toContainEqual({ name: 'kernel-home', mountPath: '/home/node' });
    },
  );

  it('the kernel config dir defaults to <stateDir>/iac-code; config.configDir outside the state dir is refused', () => {
    const kernel = containerNamed(
      onlyOfKind<Deployment>(scenario('defaults'), 'Deployment'),
      'iac-code-kernel',
    );
    expect(kernel.env).toContainEqual({ name: 'IAC_CODE_CONFIG_DIR', value: '/var/lib/agui/iac-code' });
    const allOnKernel = containerNamed(
      onlyOfKind<Deployment>(scenario('allOn'), 'Deployment'),
      'iac-code-kernel',
    );
    expect(allOnKernel.env).toContainEqual({ name: 'IAC_CODE_CONFIG_DIR', value: '/var/lib/agui/config' });
    for (const configDir of ['/etc/iac-code', '/var/lib/aguix']) {
      const result = runHelm(['template', 'release', CHART_DIR, '--set', `config.configDir=${configDir}`]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(
        `config.configDir (${configDir}) must lie under config.stateDir (/var/lib/agui)`,
      );
    }
  });

  it('the kernel runs under tini -e 143 (its SIGTERM exit is a clean stop) with exec probes on its /health', () => {
    const kernel = containerNamed(
      onlyOfKind<Deployment>(scenario('defaults'), 'Deployment'),
      'iac-code-kernel',
    );
    expect(kernel.command).toEqual(['/usr/bin/tini', '-e', '143', '--']);
    for (const probe of [kernel.startupProbe, kernel.livenessProbe]) {
      expect(probe).toMatchObject({ exec: { command: ['node', '-e', expect.stringContaining('/health')] } });
      // The token comes from the container's environment at probe time, never from the pod spec.
      expect(JSON.stringify(probe)).toContain('process.env.IACCODE_A2A_HTTP_TOKEN');
    }
  });

  it('checksum/secret is the hash of the rendered Secret, generated kernel token included', () => {
    const result = runHelm(['template', 'release', CHART_DIR, '--namespace', 'agents']);
    expect(result.status).toBe(0);
    // One render: the Secret text helm printed (after its `# Source` line) is what the annotation hashes, so the
    // generated token is made once per render; on upgrade `lookup` keeps it, and with it the checksum.
    const secretText = result.stdout
      .split('---\n')
      .find((document) => document.startsWith('# Source: agui-a2a-gateway/templates/secret.yaml'))
      ?.replace(/^[^\n]*\n/, '');
    expect(secretText).toContain('a2a-token: ');
    const checksum = /checksum\/secret: ([a-f0-9]{64})/.exec(result.stdout)?.[1];
    expect(checksum).toBe(
      createHash('sha256')
        .update(secretText ?? '')
        .digest('hex'),
    );
  });

  it('a rotated token changes checksum/secret (pods restart) and nothing else; the same values keep it', () => {
    const annotationsOf = (set: string[]) =>
      onlyOfKind<Deployment>(renderChart({ set }), 'Deployment').spec.template.metadata.annotations ?? {};
    const before = annotationsOf(['secrets.authToken=old', 'secrets.a2aToken=kernel']);
    const again = annotationsOf(['secrets.authToken=old', 'secrets.a2aToken=kernel']);
    const rotated = annotationsOf(['secrets.authToken=new', 'secrets.a2aToken=kernel']);
    expect(again).toEqual(before);
    expect(rotated['checksum/secret']).not.toBe(before['checksum/secret']);
    expect(rotated['checksum/config']).toBe(before['checksum/config']);
  });

  it('with secrets.existingSecret there is no chart Secret to hash (rotate with kubectl rollout restart)', () => {
    const manifests = renderChart({ set: ['secrets.existingSecret=agui-tokens'] });
    const annotations = onlyOfKind<Deployment>(manifests, 'Deployment').spec.template.metadata.annotations;
    expect(Object.keys(annotations ?? {})).toEqual(['checksum/config']);
  });

  it.each([
    { host: undefined, expected: '0.0.0.0' },
    { host: '::', expected: '::' },
  ])('config.host $host: IAC_CODE_AGUI_HOST=$expected, accepted by the service', ({ host, expected }) => {
    const manifests = renderChart({ set: host ? [`config.host=${host}`] : [] });
    const environment = gatewayEnvironment(manifests);
    expect(environment.IAC_CODE_AGUI_HOST).toBe(expected);
    expect(loadConfig(environment, HOST).host).toBe(expected);
  });

  it('the PodDisruptionBudget lets a crash-looping pod be evicted (node drains are never blocked)', () => {
    const pdb = onlyOfKind(scenario('allOn'), 'PodDisruptionBudget') as K8sObject & {
      spec: Record<string, unknown>;
    };
    expect(pdb.spec).toMatchObject({ minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
  });

  it('an existing Secret replaces the chart Secret and is referenced for each token', () => {
    const manifests = renderChart({
      set: ['secrets.existingSecret=agui-tokens', 'secrets.authToken=ignored-inline-value'],
    });
    expect(ofKind(manifests, 'Secret')).toEqual([]);
    const deployment = onlyOfKind<Deployment>(manifests, 'Deployment');
    const refs = allContainers(deployment)
      .flatMap((container) => container.env ?? [])
      .filter((variable) => variable.valueFrom?.secretKeyRef)
      .map((variable) => [variable.name, variable.valueFrom?.secretKeyRef]);
    expect(Object.fromEntries(refs)).toEqual({
      IAC_CODE_AGUI_AUTH_TOKEN: { name: 'agui-tokens', key: 'auth-token' },
      IAC_CODE_AGUI_A2A_TOKEN: { name: 'agui-tokens', key: 'a2a-token' },
      IACCODE_A2A_HTTP_TOKEN: { name: 'agui-tokens', key: 'a2a-token' },
    });
    expect(JSON.stringify(manifests)).not.toContain('ignored-inline-value');
  });

  it('an inline auth token renders a Secret and the gateway reads IAC_CODE_AGUI_AUTH_TOKEN from it', () => {
    const manifests = renderChart({
      set: ['kernel.enabled=false', 'config.a2aUrl=http://127.0.0.1:9100', 'secrets.authToken=s3cret'],
    });
    expect(secretValues(onlyOfKind<Secret>(manifests, 'Secret'))).toEqual({ 'auth-token': 's3cret' });
    expect(gatewayEnvironment(manifests).IAC_CODE_AGUI_AUTH_TOKEN).toBe('s3cret');
  });

  it.each([
    { name: 'one replica (defaults)', manifests: () => scenario('defaults'), pdb: false, hpa: false },
    {
      name: 'two replicas on Redis',
      manifests: () =>
        renderChart({
          set: [
            'config.stateStore=redis',
            'secrets.redisUrl=redis://r:6379',
            'replicaCount=2',
            'persistence.enabled=false',
          ],
        }),
      pdb: true,
      hpa: false,
    },
    { name: 'autoscaling on Redis (all on)', manifests: () => scenario('allOn'), pdb: true, hpa: true },
  ])(
    'PodDisruptionBudget and HPA only when more than one replica is allowed: $name',
    ({ manifests, pdb, hpa }) => {
      const rendered = manifests();
      expect(ofKind(rendered, 'PodDisruptionBudget')).toHaveLength(pdb ? 1 : 0);
      expect(ofKind(rendered, 'HorizontalPodAutoscaler')).toHaveLength(hpa ? 1 : 0);
    },
  );

  it('the all-on HPA drives the Deployment, which then leaves replicas to it', () => {
    const hpa = onlyOfKind(scenario('allOn'), 'HorizontalPodAutoscaler') as K8sObject & {
      spec: { scaleTargetRef: { name: string }; minReplicas: number; maxReplicas: number };
    };
    const deployment = onlyOfKind<Deployment>(scenario('allOn'), 'Deployment');
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'agui' },
      minReplicas: 2,
      maxReplicas: 6,
    });
    expect(deployment.spec.replicas).toBeUndefined();
  });

  it('NetworkPolicy admits only the http port, from the configured peers, and restricts egress to DNS + rules', () => {
    const defaults = onlyOfKind(scenario('defaults'), 'NetworkPolicy') as K8sObject & {
      spec: Record<string, unknown>;
    };
    expect(defaults.spec.policyTypes).toEqual(['Ingress']);
    expect(defaults.spec.ingress).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
    const allOn = onlyOfKind(scenario('allOn'), 'NetworkPolicy') as K8sObject & {
      spec: {
        policyTypes: string[];
        ingress: { from: unknown[] }[];
        egress: { ports: { port: number }[] }[];
      };
    };
    expect(allOn.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(allOn.spec.ingress[0].from).toHaveLength(2);
    expect(allOn.spec.egress[0].ports.map((p) => p.port)).toEqual([53, 53]);
    expect(allOn.spec.egress).toHaveLength(2);
  });

  it('the ServiceMonitor scrapes /metrics with the auth token from the Secret', () => {
    const monitor = onlyOfKind(scenario('allOn'), 'ServiceMonitor') as K8sObject & {
      metadata: { labels: Record<string, string> };
      spec: { endpoints: Record<string, unknown>[] };
    };
    expect(monitor.metadata.labels.release).toBe('prometheus');
    expect(monitor.spec.endpoints).toEqual([
      {
        port: 'http',
        path: '/metrics',
        interval: '15s',
        scrapeTimeout: '5s',
        authorization: { type: 'Bearer', credentials: { name: 'agui', key: 'auth-token' } },
      },
    ]);
  });

  it('the Service targets the named http port', () => {
    const service = onlyOfKind(scenario('defaults'), 'Service') as K8sObject & { spec: { ports: unknown[] } };
    expect(service.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });
});
