import { ConfigError, loadConfig } from './load-config';

const HOST = { cwd: '/work', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };

describe('loadConfig: IAC_CODE_AGUI_MANAGED_START_SECONDS', () => {
  it.each([
    { name: 'unset: 60 s', value: undefined, expectedMs: 60_000 },
    { name: 'whole seconds', value: '90', expectedMs: 90_000 },
    { name: 'fractions of a second', value: '0.25', expectedMs: 250 },
  ])('$name', ({ value, expectedMs }) => {
    const config = loadConfig({ IAC_CODE_AGUI_MANAGED_START_SECONDS: value }, HOST);

    expect(config.managedStartTimeoutMs).toBe(expectedMs);
  });

  it.each(['0', '-5', '3601', 'soon', ''])('refuses %j at boot, naming the variable', (value) => {
    const load = () => loadConfig({ IAC_CODE_AGUI_MANAGED_START_SECONDS: value }, HOST);

    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/IAC_CODE_AGUI_MANAGED_START_SECONDS=/);
  });
});
