import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/load-config';
import { SettingWarnings } from './setting-warnings';

const HOST = { cwd: '/srv', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };

describe('SettingWarnings', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs each deprecated setting once at boot, as a warning naming the old setting and the new', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const config = loadConfig(
      { IAC_CODE_AGUI_THREAD_CACHE_SIZE: '10', IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS: '0' },
      HOST,
    );

    new SettingWarnings(config).onApplicationBootstrap();

    expect(warn.mock.calls).toEqual([
      [{ msg: expect.stringMatching(/^IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS is deprecated.*--expose-gc/) }],
      [
        {
          msg: expect.stringMatching(
            /^IAC_CODE_AGUI_THREAD_CACHE_SIZE is deprecated.*IAC_CODE_AGUI_THREAD_CACHE_BYTES/,
          ),
        },
      ],
    ]);
  });

  it('logs nothing for a configuration without deprecated settings', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    new SettingWarnings(loadConfig({}, HOST)).onApplicationBootstrap();
    expect(warn).not.toHaveBeenCalled();
  });
});
