import {
  DEFAULT_INJECTED_ERROR,
  KernelFaultInjector,
  MAX_INJECTED_DELAY_MS,
  parseInjectedFault,
} from './kernel-fault-injector';

describe('parseInjectedFault', () => {
  it('fills times 1 and the internal error by default', () => {
    expect(parseInjectedFault({ method: 'SendStreamingMessage', mode: 'rpc-error' })).toEqual({
      method: 'SendStreamingMessage',
      mode: 'rpc-error',
      times: 1,
      error: DEFAULT_INJECTED_ERROR,
      delayMs: 0,
    });
  });

  it('keeps a hold before the answer', () => {
    expect(
      parseInjectedFault({ method: 'SubscribeToTask', mode: 'empty-stream', delayMs: 700 }),
    ).toMatchObject({
      delayMs: 700,
    });
  });

  it('keeps a given error with its data', () => {
    const error = {
      code: -32000,
      message: 'busy',
      data: { code: 'SESSION_BACKUP_NOT_READY', retryable: true },
    };
    expect(parseInjectedFault({ method: 'SendMessage', mode: 'rpc-error', times: 2, error })).toMatchObject({
      times: 2,
      error,
    });
  });

  it.each([
    { name: 'no method', body: { mode: 'http-500' }, reason: /method/ },
    { name: 'unknown mode', body: { method: 'GetTask', mode: 'boom' }, reason: /mode/ },
    {
      name: 'empty stream on a unary method',
      body: { method: 'SendMessage', mode: 'empty-stream' },
      reason: /streaming/,
    },
    { name: 'zero times', body: { method: 'GetTask', mode: 'http-500', times: 0 }, reason: /times/ },
    {
      name: 'bad error',
      body: { method: 'GetTask', mode: 'rpc-error', error: { code: 'x' } },
      reason: /error/,
    },
    { name: 'not an object', body: 'x', reason: /method/ },
    {
      name: 'a negative delay',
      body: { method: 'GetTask', mode: 'http-500', delayMs: -1 },
      reason: /delayMs/,
    },
    {
      name: 'a delay over the cap',
      body: { method: 'GetTask', mode: 'http-500', delayMs: MAX_INJECTED_DELAY_MS + 1 },
      reason: /delayMs/,
    },
    {
      name: 'a fractional delay',
      body: { method: 'GetTask', mode: 'http-500', delayMs: 1.5 },
      reason: /delayMs/,
    },
  ])('refuses $name', ({ body, reason }) => {
    expect(parseInjectedFault(body)).toMatch(reason);
  });
});

describe('KernelFaultInjector', () => {
  it('applies a fault to the next `times` calls of its method only, oldest first; clear disarms', () => {
    const injector = new KernelFaultInjector();
    injector.arm({
      method: 'GetTask',
      mode: 'http-500',
      times: 2,
      error: DEFAULT_INJECTED_ERROR,
      delayMs: 0,
    });
    injector.arm({
      method: 'GetTask',
      mode: 'rpc-error',
      times: 1,
      error: DEFAULT_INJECTED_ERROR,
      delayMs: 0,
    });
    injector.arm({
      method: 'CancelTask',
      mode: 'http-500',
      times: 1,
      error: DEFAULT_INJECTED_ERROR,
      delayMs: 0,
    });
    expect(injector.take('SendMessage')).toBeUndefined();
    expect([1, 2, 3, 4].map(() => injector.take('GetTask')?.mode)).toEqual([
      'http-500',
      'http-500',
      'rpc-error',
      undefined,
    ]);
    injector.clear();
    expect(injector.take('CancelTask')).toBeUndefined();
  });
});
