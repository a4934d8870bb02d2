import type { IncomingMessage } from 'node:http';

/** One request as the scripted kernel saw it, for tests that assert what the gateway sent upstream. */
export interface KernelRequestLogEntry {
  readonly httpMethod: string;
  /** Path and query, e.g. `/` or `/iac-code/pipeline/state?taskId=t`. */
  readonly path: string;
  /** Lower-case header names; `authorization` is never recorded. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON-RPC method of a `POST /`. */
  readonly rpcMethod?: string;
  /** The parsed JSON body (the raw text when it is not JSON); absent when no body was read. */
  readonly body?: unknown;
}

export function toKernelRequestLogEntry(
  request: IncomingMessage,
  body: string | undefined,
): KernelRequestLogEntry {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const entry: { -readonly [K in keyof KernelRequestLogEntry]: KernelRequestLogEntry[K] } = {
    httpMethod: request.method ?? 'GET',
    path: request.url ?? '/',
    headers,
  };
  if (body !== undefined && body !== '') {
    entry.body = parseOrRaw(body);
    const method = (entry.body as { method?: unknown } | null)?.method;
    if (typeof method === 'string') entry.rpcMethod = method;
  }
  return entry;
}

function parseOrRaw(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
