import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHART_DIR, REPO_ROOT } from './helm';
import { parseYaml } from './parse-yaml';

/** Where scripts/setup-chart-tools.sh installs kubernetes-validate and pod-security. */
const TOOLS_DIR =
  process.env.AGUI_CHART_TOOLS_DIR ?? path.join(REPO_ROOT, 'node_modules', '.cache', 'chart-tools');

function tool(relative: string): string {
  const file = path.join(TOOLS_DIR, relative);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run scripts/setup-chart-tools.sh first`);
  return file;
}

function run(program: string, args: readonly string[], input: string) {
  const result = spawnSync(program, args, { input, encoding: 'utf8', timeout: 120_000 });
  if (result.error) throw result.error;
  return result;
}

const minor = (version: string) => Number(/^v?1\.(\d+)/.exec(version)?.[1]);

/**
 * The Kubernetes releases to validate against: every one kubernetes-validate ships schemas for, from the chart's
 * kubeVersion minimum on (so a newer pinned package widens the range by itself).
 */
export function kubernetesVersions(): string[] {
  const chart = parseYaml<{ kubeVersion: string }>(
    fs.readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8'),
  );
  const minimum = minor(/>=\s*(1\.\d+)/.exec(chart.kubeVersion)?.[1] ?? '');
  const lib = path.join(tool('venv'), 'lib');
  const python = fs.readdirSync(lib).find((name) => name.startsWith('python3'));
  const schemas = path.join(
    lib,
    python ?? 'python3',
    'site-packages',
    'kubernetes_validate',
    'kubernetes-json-schema',
  );
  return fs
    .readdirSync(schemas)
    .map((name) => /^v(\d+\.\d+\.\d+)-local-strict$/.exec(name)?.[1])
    .filter((version): version is string => version !== undefined && minor(version) >= minimum)
    .sort((a, b) => minor(a) - minor(b));
}

export interface SchemaValidation {
  readonly status: number | null;
  /** `kind/name against version 1.x` for each object that passed. */
  readonly passed: readonly string[];
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

/** kubernetes-validate --strict (unknown fields are errors, as `kubectl apply --validate=strict`) of a manifest stream. */
export function validateSchemas(manifests: string, versions: readonly string[]): SchemaValidation {
  // A file, not stdin: the validator reads its input once per version.
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-kubernetes-validate-'));
  const file = path.join(directory, 'manifests.yaml');
  try {
    fs.writeFileSync(file, manifests);
    const args = ['--strict', ...versions.flatMap((version) => ['-k', version]), file];
    const result = run(tool('venv/bin/kubernetes-validate'), args, '');
    const lines = `${result.stdout}\n${result.stderr}`.split('\n');
    // Lines read `LEVEL <file> message`.
    const matching = (level: string) =>
      lines.flatMap((line) =>
        line.startsWith(`${level} ${file} `) ? [line.slice(level.length + file.length + 2)] : [],
      );
    return {
      status: result.status,
      passed: matching('INFO').flatMap((line) => /^passed for resource (.*)$/.exec(line)?.[1] ?? []),
      warnings: matching('WARN'),
      errors: matching('ERROR'),
    };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

export interface PodSecurityResult {
  readonly kind: string;
  readonly name: string;
  /** `restricted:v1.29`, `restricted:latest`. */
  readonly policy: string;
  readonly allowed: boolean;
  readonly forbidden: readonly string[];
}

/** Kubernetes' own Pod Security evaluator on every pod template of a manifest stream. */
export function evaluatePodSecurity(
  manifests: string,
  level: 'baseline' | 'restricted',
  versions: readonly string[],
): {
  readonly status: number | null;
  readonly results: readonly PodSecurityResult[];
  readonly stderr: string;
} {
  const result = run(tool('bin/pod-security'), ['-level', level, '-versions', versions.join(',')], manifests);
  const results = result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as PodSecurityResult);
  return { status: result.status, results, stderr: result.stderr };
}
