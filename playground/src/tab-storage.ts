import type { ThreadRecord } from './thread-record';

/**
 * This tab's memory (sessionStorage): the bearer token is entered once per tab and never leaves the
 * browser except in the Authorization header; threads survive a reload. Storage can be full or blocked
 * (private windows): the page keeps working, it only forgets.
 */
const PREFIX = 'agui-playground.';
const TOKEN = `${PREFIX}token`;
const CWD = `${PREFIX}cwd`;
const THREADS = `${PREFIX}threads`;
const CURRENT = `${PREFIX}currentThread`;

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Full or blocked storage: only persistence is lost.
  }
}

export const tabStorage = {
  token: (): string => read(TOKEN) ?? '',
  saveToken: (token: string): void => write(TOKEN, token),
  cwd: (fallback: string): string => read(CWD) || fallback,
  saveCwd: (cwd: string): void => write(CWD, cwd),
  currentThreadId: (): string | null => read(CURRENT),
  saveCurrentThreadId: (threadId: string): void => write(CURRENT, threadId),

  threads(): ThreadRecord[] {
    try {
      const parsed: unknown = JSON.parse(read(THREADS) ?? '[]');
      return Array.isArray(parsed) ? (parsed as ThreadRecord[]) : [];
    } catch {
      return [];
    }
  },

  saveThreads(threads: readonly ThreadRecord[]): void {
    write(THREADS, JSON.stringify(threads));
  },
};
