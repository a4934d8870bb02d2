import { type RenderOptions, VALUES_ALL_ON, renderChartText } from './support/helm';
import { evaluatePodSecurity, kubernetesVersions, validateSchemas } from './support/chart-tools';
import { parseYamlDocuments } from './support/parse-yaml';
import type { K8sObject } from './support/k8s-manifests';

/**
 * What an API server would say about the rendered chart, offline: the objects against the Kubernetes API's own
 * JSON schemas of every supported release (kubernetes-validate, strict: unknown fields are errors), and every pod
 * against the Pod Security Standards "restricted" level with Kubernetes' own evaluator
 * (k8s.io/pod-security-admission), for the oldest supported policy version and the latest.
 * Tools: scripts/setup-chart-tools.sh.
 */
const scenarios: { name: string; options: RenderOptions }[] = [
  { name: 'defaults', options: {} },
  { name: 'every option on', options: { valuesFiles: [VALUES_ALL_ON] } },
  { name: 'kernel as an ordinary container', options: { set: ['kernel.nativeSidecar=false'] } },
  {
    name: 'no kernel (an external one), no persistence',
    options: {
      set: [
        'kernel.enabled=false',
        'config.a2aUrl=http://kernel.agents.svc:9100',
        'config.a2aAllowRemote=true',
        'persistence.enabled=false',
      ],
    },
  },
];
/** Custom resources: no schema in the Kubernetes API (the Prometheus Operator's CRD defines it). */
const CUSTOM_KINDS = new Set(['ServiceMonitor']);
const POLICY_VERSIONS = ['v1.29', 'latest'];
const versions = kubernetesVersions();

describe('the rendered chart against Kubernetes schemas and Pod Security', () => {
  it('validates against every release from the chart minimum (1.29) to the newest schemas shipped', () => {
    expect(versions[0]).toBe('1.29.0');
    expect(versions.length).toBeGreaterThanOrEqual(9);
  });

  describe.each(scenarios)('$name', ({ options }) => {
    const text = renderChartText(options);
    const objects = parseYamlDocuments<K8sObject>(text);

    it('every object passes the strict API schema of every release', () => {
      const validation = validateSchemas(text, versions);
      expect(validation.errors).toEqual([]);
      const expected = objects
        .filter((object) => !CUSTOM_KINDS.has(object.kind))
        .flatMap((object) =>
          versions.map(
            (version) =>
              `${object.kind.toLowerCase()}/${object.metadata.name} against version ${version.replace(/\.0$/, '')}`,
          ),
        );
      expect([...validation.passed].sort()).toEqual(expected.sort());
      expect(validation.warnings.filter((warning) => !/kind ServiceMonitor /.test(warning))).toEqual([]);
      expect(validation.status).toBe(0);
    });

    it('every pod is allowed at the restricted level', () => {
      const evaluation = evaluatePodSecurity(text, 'restricted', POLICY_VERSIONS);
      expect(evaluation.stderr).toBe('');
      const pods = objects.filter((object) => object.kind === 'Deployment');
      expect(
        evaluation.results.map(({ name, policy, allowed, forbidden }) => ({
          name,
          policy,
          allowed,
          forbidden,
        })),
      ).toEqual(
        pods.flatMap((pod) =>
          POLICY_VERSIONS.map((version) => ({
            name: pod.metadata.name,
            policy: `restricted:${version}`,
            allowed: true,
            forbidden: [],
          })),
        ),
      );
      expect(evaluation.status).toBe(0);
    });
  });

  // The checks can fail: each catches what the API server or the PodSecurity admission would refuse.
  it('an unknown field in a pass-through value fails the strict schema', () => {
    const text = renderChartText({ setJson: ['extraEnv=[{"name":"OTEL_SERVICE_NAME","valu":"agui"}]'] });
    const validation = validateSchemas(text, ['1.29.0']);
    expect(validation.errors.join('\n')).toContain("'valu' was unexpected");
    expect(validation.status).not.toBe(0);
  });

  it.each([
    {
      name: 'privilege escalation',
      options: { set: ['securityContext.allowPrivilegeEscalation=true'] },
      reason: 'allowPrivilegeEscalation != false',
    },
    {
      name: 'an added capability',
      options: { setJson: ['securityContext.capabilities={"drop":["ALL"],"add":["NET_ADMIN"]}'] },
      reason: 'unrestricted capabilities',
    },
    {
      name: 'root',
      options: { setJson: ['podSecurityContext={"runAsNonRoot":false,"runAsUser":0}'] },
      reason: 'runAsNonRoot != true',
    },
  ])('$name is forbidden at the restricted level', ({ options, reason }) => {
    const evaluation = evaluatePodSecurity(renderChartText(options), 'restricted', ['latest']);
    expect(evaluation.results).toHaveLength(1);
    expect(evaluation.results[0].allowed).toBe(false);
    expect(evaluation.results[0].forbidden.join('\n')).toContain(reason);
    expect(evaluation.status).toBe(1);
  });
});
