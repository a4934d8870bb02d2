/** The parts of rendered manifests the chart tests read; everything else stays `unknown`. */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly annotations?: Record<string, string>;
  };
  readonly [field: string]: unknown;
}

export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } };
}

export interface ContainerSecurityContext {
  readonly runAsNonRoot?: boolean;
  readonly readOnlyRootFilesystem?: boolean;
  readonly allowPrivilegeEscalation?: boolean;
  readonly capabilities?: { readonly drop?: string[]; readonly add?: string[] };
  readonly seccompProfile?: { readonly type: string };
}

export interface HttpProbe {
  readonly httpGet: { readonly path: string; readonly port: string | number };
}

export interface ExecAction {
  readonly exec: { readonly command: string[] };
}

export interface Container {
  readonly name: string;
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly restartPolicy?: string;
  readonly ports?: { readonly name: string; readonly containerPort: number }[];
  readonly env?: EnvVar[];
  readonly envFrom?: { readonly configMapRef?: { readonly name: string } }[];
  readonly securityContext?: ContainerSecurityContext;
  readonly resources?: {
    readonly requests?: Record<string, string>;
    readonly limits?: Record<string, string>;
  };
  readonly livenessProbe?: HttpProbe | ExecAction;
  readonly readinessProbe?: HttpProbe;
  readonly startupProbe?: HttpProbe | ExecAction;
  readonly lifecycle?: { readonly preStop?: ExecAction };
  readonly volumeMounts?: { readonly name: string; readonly mountPath: string }[];
}

export interface Volume {
  readonly name: string;
  readonly emptyDir?: { readonly sizeLimit?: string };
  readonly persistentVolumeClaim?: { readonly claimName: string };
}

export interface PodSpec {
  readonly containers: Container[];
  readonly initContainers?: Container[];
  readonly volumes: Volume[];
  readonly securityContext?: {
    readonly runAsNonRoot?: boolean;
    readonly seccompProfile?: { readonly type: string };
  };
  readonly terminationGracePeriodSeconds: number;
  readonly automountServiceAccountToken?: boolean;
  readonly enableServiceLinks?: boolean;
  readonly serviceAccountName: string;
}

export interface Deployment extends K8sObject {
  readonly spec: {
    readonly replicas?: number;
    readonly strategy: { readonly type: string };
    readonly template: {
      readonly metadata: { readonly annotations?: Record<string, string> };
      readonly spec: PodSpec;
    };
  };
}

export interface ConfigMap extends K8sObject {
  readonly data: Record<string, string>;
}

export interface Secret extends K8sObject {
  readonly data?: Record<string, string>;
  readonly stringData?: Record<string, string>;
}

export function ofKind<T extends K8sObject>(manifests: readonly K8sObject[], kind: string): T[] {
  return manifests.filter((manifest) => manifest.kind === kind) as T[];
}

/** The one object of a kind; fails the test when there are none or several. */
export function onlyOfKind<T extends K8sObject>(manifests: readonly K8sObject[], kind: string): T {
  const found = ofKind<T>(manifests, kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

/** Regular containers and init containers (the native kernel sidecar is one). */
export function allContainers(deployment: Deployment): Container[] {
  const pod = deployment.spec.template.spec;
  return [...pod.containers, ...(pod.initContainers ?? [])];
}

export function containerNamed(deployment: Deployment, name: string): Container {
  const container = allContainers(deployment).find((c) => c.name === name);
  if (!container) throw new Error(`no container ${name}`);
  return container;
}

/** A Secret's values, decoded. */
export function secretValues(secret: Secret): Record<string, string> {
  const decoded = Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString('utf8'),
    ]),
  );
  return { ...decoded, ...secret.stringData };
}
