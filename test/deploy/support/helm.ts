import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseYamlDocuments } from './parse-yaml';
import type { K8sObject } from './k8s-manifests';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CHART_DIR = path.join(REPO_ROOT, 'helm', 'agui-a2a-gateway');
export const VALUES_ALL_ON = path.join(REPO_ROOT, 'test', 'deploy', 'values-all-on.yaml');

export interface HelmResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs helm v4 through scripts/helm.sh (built from its Go module by scripts/setup-chart-tools.sh). */
export function runHelm(args: readonly string[]): HelmResult {
  const result = spawnSync(path.join(REPO_ROOT, 'scripts', 'helm.sh'), args, {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RenderOptions {
  readonly valuesFiles?: readonly string[];
  /** `--set key=value` pairs. */
  readonly set?: readonly string[];
  readonly setString?: readonly string[];
  /** `--set-json key=json`: typed values such as floats, which `--set` turns into strings. */
  readonly setJson?: readonly string[];
}

function templateArgs(options: RenderOptions): string[] {
  return [
    'template',
    'release',
    CHART_DIR,
    '--namespace',
    'agents',
    ...(options.valuesFiles ?? []).flatMap((file) => ['--values', file]),
    ...(options.set ?? []).flatMap((pair) => ['--set', pair]),
    ...(options.setString ?? []).flatMap((pair) => ['--set-string', pair]),
    ...(options.setJson ?? []).flatMap((pair) => ['--set-json', pair]),
  ];
}

/** `helm template` that must fail: its result, for the error message. */
export function templateChartExpectingFailure(options: RenderOptions): HelmResult {
  return runHelm(templateArgs(options));
}

/** `helm template` output as helm prints it; throws with helm's message when rendering fails. */
export function renderChartText(options: RenderOptions = {}): string {
  const result = runHelm(templateArgs(options));
  if (result.status !== 0) throw new Error(`helm template failed (${result.status}):\n${result.stderr}`);
  return result.stdout;
}

/** `helm template` parsed into manifests. */
export function renderChart(options: RenderOptions = {}): K8sObject[] {
  return parseYamlDocuments<K8sObject>(renderChartText(options));
}
