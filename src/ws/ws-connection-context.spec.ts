import { wsConnectionContextOf } from './ws-connection-context';

const SESSION = 'x-amzn-bedrock-agentcore-runtime-session-id';
const REQUEST = 'x-amzn-bedrock-agentcore-runtime-request-id';

describe('wsConnectionContextOf', () => {
  it.each([
    {
      name: 'ids from the headers',
      url: '/ws',
      headers: { [SESSION]: 'session-h', [REQUEST]: 'request-h' },
      expected: { requestId: 'request-h', agentCoreSessionId: 'session-h', closeAfterRun: false },
    },
    {
      name: 'ids from the query, any letter case (presigned URLs)',
      url: '/ws?X-Amzn-Bedrock-AgentCore-Runtime-Session-Id=session-q&x-amzn-bedrock-agentcore-runtime-request-id=request-q',
      headers: {},
      expected: { requestId: 'request-q', agentCoreSessionId: 'session-q', closeAfterRun: false },
    },
    {
      name: 'the header wins over the query',
      url: `/ws?${SESSION}=session-q`,
      headers: { [SESSION]: 'session-h' },
      expected: { requestId: 'generated', agentCoreSessionId: 'session-h', closeAfterRun: false },
    },
    {
      name: 'an empty header does not hide the query',
      url: `/ws?${SESSION}=session-q`,
      headers: { [SESSION]: '' },
      expected: { requestId: 'generated', agentCoreSessionId: 'session-q', closeAfterRun: false },
    },
    {
      name: 'no ids: a generated request id, no session',
      url: '/ws?closeAfterRun=true',
      headers: {},
      expected: { requestId: 'generated', closeAfterRun: true },
    },
    {
      name: 'closeAfterRun must be exactly true',
      url: '/ws?closeAfterRun=1',
      headers: {},
      expected: { requestId: 'generated', closeAfterRun: false },
    },
    {
      name: 'an id with control characters is not taken',
      url: `/ws?${SESSION}=bad%0Aid`,
      headers: {},
      expected: { requestId: 'generated', closeAfterRun: false },
    },
    {
      name: 'the language header is kept for messages',
      url: '/ws',
      headers: { 'accept-language': 'de' },
      expected: { requestId: 'generated', closeAfterRun: false, acceptLanguage: 'de' },
    },
    {
      name: 'event ids only when asked for with exactly true',
      url: '/ws?eventIds=true',
      headers: {},
      expected: { requestId: 'generated', closeAfterRun: false, sendsEventIds: true },
    },
    {
      name: 'eventIds=1 is not true',
      url: '/ws?eventIds=1',
      headers: {},
      expected: { requestId: 'generated', closeAfterRun: false },
    },
  ])('$name', ({ url, headers, expected }) =>
    expect(wsConnectionContextOf(url, headers, () => 'generated')).toEqual(expected),
  );
});
