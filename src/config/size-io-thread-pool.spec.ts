import { DEFAULT_IO_THREADS, sizeIoThreadPool } from './size-io-thread-pool';

describe('sizeIoThreadPool', () => {
  it.each([{}, { UV_THREADPOOL_SIZE: '' }, { UV_THREADPOOL_SIZE: '  ' }])(
    'sets the default when no size is given: %j',
    (given) => {
      const env: NodeJS.ProcessEnv = { ...given };
      sizeIoThreadPool(env);
      expect(env.UV_THREADPOOL_SIZE).toBe(String(DEFAULT_IO_THREADS));
    },
  );

  it("keeps the operator's own size", () => {
    const env: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '8' };
    sizeIoThreadPool(env);
    expect(env.UV_THREADPOOL_SIZE).toBe('8');
  });
});
