import { ConfigError, loadConfig, type HostFacts } from './load-config';

const HOST: HostFacts = { cwd: '/srv', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };

describe('loadConfig: memory and HTTP server limits', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, HOST);
    expect(config.threadCacheSize).toBe(2_000);
    expect(config.threadCacheBytes).toBe(32 * 1024 * 1024);
    expect(config.http).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 120_000,
      bodyIdleMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('reads each variable', () => {
    const config = loadConfig(
      {
        IAC_CODE_AGUI_THREAD_CACHE_SIZE: '50',
        IAC_CODE_AGUI_THREAD_CACHE_BYTES: '1048576',
        IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS: '2.5',
        IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS: '0',
        IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS: '1',
        IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS: '65',
      },
      HOST,
    );
    expect(config.threadCacheSize).toBe(50);
    expect(config.threadCacheBytes).toBe(1_048_576);
    expect(config.http).toEqual({
      headersTimeoutMs: 2_500,
      requestTimeoutMs: 0,
      bodyIdleMs: 1_000,
      keepAliveTimeoutMs: 65_000,
    });
  });

  it('refuses a header deadline later than the request deadline', () => {
    const env = {
      IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS: '30',
      IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS: '10',
    };
    expect(() => loadConfig(env, HOST)).toThrow('IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS');
    expect(
      loadConfig({ ...env, IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS: '0' }, HOST).http.headersTimeoutMs,
    ).toBe(30_000);
  });

  it.each([
    ['IAC_CODE_AGUI_THREAD_CACHE_SIZE', '0'],
    ['IAC_CODE_AGUI_THREAD_CACHE_SIZE', '1.5'],
    ['IAC_CODE_AGUI_THREAD_CACHE_SIZE', 'many'],
    ['IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS', '0'],
    ['IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS', '-1'],
    ['IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS', '0'],
    ['IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS', 'soon'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value }, HOST)).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value }, HOST)).toThrow(name);
  });
});
