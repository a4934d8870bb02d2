import type { ServerResponse } from 'node:http';
import type { KernelRouteHandler } from '../../../src/demo-kernel/kernel-server';
import type { KernelRequestLogEntry } from '../../../src/demo-kernel/kernel-request-log-entry';
import {
  parseInjectedFault,
  type KernelFaultInjector,
} from '../../../src/demo-kernel/faults/kernel-fault-injector';
import {
  ENSURE_RESTORED_MODES,
  isEnsureRestoredMode,
  type KernelSessionRestore,
} from '../../../src/demo-kernel/kernel-session-restore';
import type { KernelHolds } from '../../../src/demo-kernel/kernel-holds';
import {
  ENSURE_RESTORED_MODE_PATH,
  FAULTS_PATH,
  HOLDS_PATH,
  REQUEST_JOURNAL_PATH,
} from './upstream-protocol';

/** The test entry's control routes: the request journal, fault injection, holds, the session-restore mode. */
export function testControlRoutes(controls: {
  journal: readonly KernelRequestLogEntry[];
  faults: KernelFaultInjector;
  sessions: KernelSessionRestore;
  holds: KernelHolds;
}): Record<string, KernelRouteHandler> {
  return {
    [`GET ${REQUEST_JOURNAL_PATH}`]: (_request, response) => send(response, 200, controls.journal),
    [`POST ${FAULTS_PATH}`]: (_request, response, body) => {
      const fault = parseInjectedFault(parse(body));
      if (typeof fault === 'string') return send(response, 400, { error: fault });
      controls.faults.arm(fault);
      send(response, 200, { armed: fault });
    },
    [`DELETE ${FAULTS_PATH}`]: (_request, response) => {
      controls.faults.clear();
      send(response, 200, { armed: [] });
    },
    [`POST ${HOLDS_PATH}`]: (_request, response) => {
      controls.holds.arm();
      send(response, 200, { armed: true });
    },
    [`DELETE ${HOLDS_PATH}`]: (_request, response) => {
      controls.holds.release();
      send(response, 200, { armed: false });
    },
    [`POST ${ENSURE_RESTORED_MODE_PATH}`]: (_request, response, body) => {
      const mode = (parse(body) as { mode?: unknown } | undefined)?.mode;
      if (!isEnsureRestoredMode(mode))
        return send(response, 400, { error: `mode must be one of ${ENSURE_RESTORED_MODES.join(', ')}` });
      controls.sessions.setMode(mode);
      send(response, 200, { mode });
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function parse(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? '') as unknown;
  } catch {
    return undefined;
  }
}
