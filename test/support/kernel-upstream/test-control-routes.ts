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
import type { PipelineJournal } from '../../../src/demo-kernel/pipeline-journal';
import {
  ENSURE_RESTORED_MODE_PATH,
  FAULTS_PATH,
  HOLDS_PATH,
  PIPELINE_REACHED_PATH,
  REQUEST_JOURNAL_PATH,
} from './upstream-protocol';

/**
 * The test entry's control routes: the request journal, fault injection, holds, the session-restore mode,
 * and a wait for a Pipeline sequence.
 */
export function testControlRoutes(controls: {
  journal: readonly KernelRequestLogEntry[];
  faults: KernelFaultInjector;
  sessions: KernelSessionRestore;
  holds: KernelHolds;
  pipelines: PipelineJournal;
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
    [`GET ${PIPELINE_REACHED_PATH}`]: async (request, response) => {
      const query = new URL(request.url ?? '/', 'http://kernel.invalid').searchParams;
      const taskId = query.get('taskId');
      const sequence = Number(query.get('sequence'));
      if (!taskId || !Number.isSafeInteger(sequence))
        return send(response, 400, { error: 'taskId and an integer sequence are required' });
      const gone = new AbortController();
      response.once('close', () => gone.abort());
      await controls.pipelines.reached(taskId, sequence, gone.signal);
      if (!gone.signal.aborted) send(response, 200, { reached: sequence });
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
