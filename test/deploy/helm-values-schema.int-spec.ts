import {
  type RenderOptions,
  VALUES_ALL_ON,
  renderChart,
  templateChartExpectingFailure,
} from './support/helm';

const SCHEMA_ERROR = "values don't meet the specifications of the schema";

describe('helm/agui-a2a-gateway values.schema.json', () => {
  it.each<{ name: string; options: RenderOptions; path: string }>([
    { name: 'two replicas on the file store', options: { set: ['replicaCount=2'] }, path: '/replicaCount' },
    {
      name: 'an HPA on the file store',
      options: { set: ['autoscaling.enabled=true'] },
      path: '/autoscaling/enabled',
    },
    {
      name: 'two replicas on the file store even without a shared volume',
      options: { set: ['replicaCount=2', 'persistence.enabled=false'] },
      path: '/replicaCount',
    },
    {
      name: 'several pods on one ReadWriteOnce state volume (Redis store)',
      options: { set: ['replicaCount=2', 'config.stateStore=redis', 'secrets.redisUrl=redis://r:6379'] },
      path: '/persistence/accessModes',
    },
    {
      name: 'the Redis store without its URL',
      options: { set: ['config.stateStore=redis'] },
      path: '/secrets',
    },
    { name: 'a port given as a string', options: { setString: ['config.port=8080'] }, path: '/config/port' },
    { name: 'a port out of range', options: { set: ['config.port=70000'] }, path: '/config/port' },
    {
      name: 'a boolean given as a string',
      options: { setString: ['config.tracing=true'] },
      path: '/config/tracing',
    },
    {
      name: "the demo upstream, which the chart's image does not hold (additional property)",
      options: { set: ['config.upstream=demo'] },
      path: '/config',
    },
    { name: 'an unknown log level', options: { set: ['config.logLevel=loud'] }, path: '/config/logLevel' },
    { name: 'a relative state dir', options: { set: ['config.stateDir=state'] }, path: '/config/stateDir' },
    { name: 'the latest tag', options: { set: ['image.tag=latest'] }, path: '/image/tag' },
    {
      name: 'the latest kernel tag',
      options: { set: ['kernel.image.tag=latest'] },
      path: '/kernel/image/tag',
    },
    {
      name: 'an existing Secret without the kernel token key while the kernel runs (secretKeyRef.key "")',
      options: { set: ['secrets.existingSecret=agui-tokens', 'secrets.keys.a2aToken='] },
      path: '/secrets/keys/a2aToken',
    },
    {
      name: 'a host name as listen address',
      options: { set: ['config.host=example.com'] },
      path: '/config/host',
    },
    {
      name: 'an unknown PDB eviction policy',
      options: { set: ['podDisruptionBudget.unhealthyPodEvictionPolicy=Never'] },
      path: '/podDisruptionBudget/unhealthyPodEvictionPolicy',
    },
    { name: 'a misspelt key', options: { set: ['config.drainSecond=10'] }, path: '/config' },
    { name: 'a misspelt top-level key', options: { set: ['replicas=1'] }, path: "''" },
  ])('rejects $name', ({ options, path }) => {
    const result = templateChartExpectingFailure(options);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(SCHEMA_ERROR);
    expect(result.stderr).toContain(`at '${path.replace(/^'|'$/g, '')}`);
  });

  it.each<{ name: string; options: RenderOptions }>([
    { name: 'the defaults', options: {} },
    { name: 'every option on', options: { valuesFiles: [VALUES_ALL_ON] } },
    {
      name: 'two replicas on Redis with a ReadWriteMany volume',
      options: {
        set: [
          'replicaCount=2',
          'config.stateStore=redis',
          'secrets.existingSecret=agui',
          'persistence.accessModes={ReadWriteMany}',
        ],
      },
    },
    { name: 'a fractional drain', options: { setJson: ['config.drainSeconds=2.5'] } },
    {
      name: 'an existing Secret without a kernel token key when there is no kernel',
      options: {
        set: ['secrets.existingSecret=agui-tokens', 'secrets.keys.a2aToken=', 'kernel.enabled=false'],
      },
    },
    { name: 'the IPv6 wildcard as listen address', options: { set: ['config.host=::'] } },
  ])('accepts $name', ({ options }) => {
    expect(renderChart(options).map((manifest) => manifest.kind)).toContain('Deployment');
  });
});
