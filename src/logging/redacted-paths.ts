/**
 * Fields whose values never reach a log line (docs/architecture.md#decisions): LLM keys,
 * AccessKey secrets, STS tokens and bearer tokens, in the camelCase of `forwardedProps.iacCode` and the
 * snake_case of the A2A metadata (docs/behaviour/a2a.md#the-message). pino's `*` matches one level, so each name is listed at
 * the top level and two levels down, which covers `{props: {alibabaCloud: {…}}}`-shaped log objects.
 */
const SECRET_FIELDS = [
  'llmApiKey',
  'accessKeySecret',
  'securityToken',
  'token',
  'authToken',
  'a2aToken',
  'authorization',
  'iac_code_api_key',
  'alibaba_cloud_access_key_secret',
  'alibaba_cloud_security_token',
];
/** Objects whose every field is hidden: the whole Alibaba Cloud credential set, the LLM provider headers. */
const SECRET_OBJECTS = ['alibabaCloud', 'llmHeaders', 'llm_headers'];
const DEPTHS = ['', '*.', '*.*.'];

export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers.workloadaccesstoken',
  'res.headers["set-cookie"]',
  ...DEPTHS.flatMap((depth) => SECRET_FIELDS.map((field) => `${depth}${field}`)),
  ...DEPTHS.flatMap((depth) => SECRET_OBJECTS.map((object) => `${depth}${object}.*`)),
];

export const REDACTED = '[Redacted]';
