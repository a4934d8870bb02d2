/**
 * libuv runs every asynchronous file-system call on its threadpool: 4 threads unless `UV_THREADPOOL_SIZE`
 * says otherwise, read once, when the pool first starts. Runs starting together each make their thread
 * durable (fsyncs of milliseconds, docs/behaviour/state.md#atomic-writes); with 4 threads those flushes wait
 * in line behind each other, with more the disk takes them together. An operator's own value is kept.
 */
export const DEFAULT_IO_THREADS = 64;

export function sizeIoThreadPool(env: NodeJS.ProcessEnv): void {
  if (!env.UV_THREADPOOL_SIZE?.trim()) env.UV_THREADPOOL_SIZE = String(DEFAULT_IO_THREADS);
}

// On import, so src/main.ts can do it before any other module (or Nest) touches the pool.
sizeIoThreadPool(process.env);
