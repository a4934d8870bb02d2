import { buildA2aMessage } from './build-a2a-message';
import type { IacCodeProps } from './iac-code-props';

const BASE: IacCodeProps = {
  schemaVersion: 1,
  rosInvocationId: 'invocation-1',
  cwd: '~/submitted',
  cleanupOnly: false,
};
const args = (props: Partial<IacCodeProps> = {}, extra: { taskId?: string } = {}) => ({
  messageId: 'message-1',
  parts: [{ text: 'hello' }],
  contextId: 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f',
  props: { ...BASE, ...props },
  cwd: '/work/ws',
  language: 'en',
  ...extra,
});
const ALWAYS = {
  cwd: '/work/ws',
  preferredLanguage: 'en',
  cleanupOnly: false,
  rosInvocationId: 'invocation-1',
};

describe('buildA2aMessage', () => {
  it("sends the thread's stored context id, never one recomputed from the thread id", () => {
    expect(buildA2aMessage({ ...args(), contextId: 'agui-stored-by-an-older-version' }).contextId).toBe(
      'agui-stored-by-an-older-version',
    );
  });

  it('forwards the runtime overrides exactly', () => {
    const message = buildA2aMessage(
      args({
        model: '  qwen-max ',
        llmApiKey: ' sk-test ',
        llmHeaders: { 'X-Provider-Key': 'hdr-secret', 'x-trace': '' },
        thinking: { enabled: true, effort: 'low', budget: 1024 },
        alibabaCloud: {
          accessKeyId: 'ak-id',
          accessKeySecret: 'ak-secret',
          securityToken: 'sts-token',
          regionId: 'cn-hangzhou',
        },
      }),
    );
    expect(message).toStrictEqual({
      messageId: 'message-1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      contextId: 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f',
      metadata: {
        iac_code: {
          cwd: '/work/ws',
          iac_code_model: 'qwen-max',
          iac_code_api_key: 'sk-test',
          thinking: { enabled: true, effort: 'low', budget: 1024 },
          preferredLanguage: 'en',
          cleanupOnly: false,
          rosInvocationId: 'invocation-1',
          llm_headers: { 'X-Provider-Key': 'hdr-secret', 'x-trace': '' },
          alibaba_cloud_access_key_id: 'ak-id',
          alibaba_cloud_access_key_secret: 'ak-secret',
          alibaba_cloud_security_token: 'sts-token',
          alibaba_cloud_region_id: 'cn-hangzhou',
        },
      },
    });
  });

  it.each([
    { name: 'only the always-sent keys', props: {}, expected: ALWAYS },
    {
      name: 'nulls omitted',
      props: {
        model: null,
        llmApiKey: null,
        thinking: null,
        userId: null,
        channel: null,
        preferredLanguage: null,
        candidatePresentation: null,
        runMode: null,
        pipelineName: null,
        alibabaCloud: null,
        llmHeaders: null,
      },
      expected: ALWAYS,
    },
    // The published adapter forwards the headers whenever they are not null, an empty object included.
    { name: 'empty llm headers kept', props: { llmHeaders: {} }, expected: { ...ALWAYS, llm_headers: {} } },
    { name: 'blank model and key omitted', props: { model: '   ', llmApiKey: '' }, expected: ALWAYS },
    {
      name: 'the other documented fields under their A2A names',
      props: {
        userId: 'user-1',
        channel: 'console',
        candidatePresentation: 'rich' as const,
        runMode: 'pipeline' as const,
        pipelineName: 'selling',
        cleanupOnly: true,
      },
      expected: {
        ...ALWAYS,
        user_id: 'user-1',
        channel: 'console',
        candidatePresentation: 'rich',
        run_mode: 'pipeline',
        pipeline_name: 'selling',
        cleanupOnly: true,
      },
    },
    {
      name: 'thinking with only enabled',
      props: { thinking: { enabled: false, effort: null, budget: null } },
      expected: { ...ALWAYS, thinking: { enabled: false } },
    },
    {
      name: 'thinking budget that is not a positive integer dropped',
      props: { thinking: { enabled: true, budget: 0 } },
      expected: { ...ALWAYS, thinking: { enabled: true } },
    },
    {
      name: 'some Alibaba Cloud keys',
      props: { alibabaCloud: { regionId: 'cn-beijing', accessKeySecret: null } },
      expected: { ...ALWAYS, alibaba_cloud_region_id: 'cn-beijing' },
    },
  ])('metadata: $name', ({ props, expected }) => {
    expect(buildA2aMessage(args(props)).metadata.iac_code).toStrictEqual(expected);
  });

  it('sends preferredLanguage from the run, not from the props', () => {
    const message = buildA2aMessage({ ...args({ preferredLanguage: 'zh-CN' }), language: 'zh' });
    expect(message.metadata.iac_code.preferredLanguage).toBe('zh');
  });

  it('carries taskId only when given', () => {
    expect(buildA2aMessage(args({}, { taskId: 'task-1' })).taskId).toBe('task-1');
    expect(Object.keys(buildA2aMessage(args()))).not.toContain('taskId');
  });
});
