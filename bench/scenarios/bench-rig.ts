import type { BenchSizes } from '../bench-options';
import type { BenchClient, BenchProcess, GatewayProcess } from '../support/bench-processes';
import type { StreamReport, StreamTarget } from '../client/client-protocol';
import { a2aTarget, gatewayTarget } from '../support/stream-targets';

/** The processes one bench run shares between scenarios. */
export interface BenchRig {
  readonly client: BenchClient;
  readonly upstream: BenchProcess;
  readonly proxy: BenchProcess;
  readonly gateway: GatewayProcess;
  /** The Python original (`iac-code agui`), absent when python3 is missing. */
  readonly original?: GatewayProcess;
  /** An allowed workspace for the runs' `cwd`. */
  readonly cwd: string;
  readonly sizes: BenchSizes;
}

export type PathName = 'gateway' | 'original' | 'proxy' | 'direct';

/** The paths this rig can measure, in the order they interleave: the original only when it runs. */
export function pathsOf(rig: BenchRig): PathName[] {
  return rig.original ? ['gateway', 'original', 'proxy', 'direct'] : ['gateway', 'proxy', 'direct'];
}

/** The process that relays a path (its CPU and syscalls are the path's cost); none for direct. */
export function relayPid(rig: BenchRig, path: PathName): number | undefined {
  if (path === 'direct') return undefined;
  if (path === 'original') return rig.original?.pid;
  return rig[path].pid;
}

export function targetFor(rig: BenchRig, path: PathName, planText: string): StreamTarget {
  if (path === 'gateway') return gatewayTarget(rig.gateway.url, planText, rig.cwd);
  if (path === 'original') {
    if (!rig.original) throw new Error('the original is not running');
    return gatewayTarget(rig.original.url, planText, rig.cwd);
  }
  return a2aTarget(path === 'proxy' ? rig.proxy.url : rig.upstream.url, planText);
}

/** A run that did not end as a normal turn measures nothing: stop the bench rather than report it. */
export function expectCompleteTurn(report: StreamReport, path: PathName, what: string): void {
  const expectedLast = path === 'gateway' || path === 'original' ? 'RUN_FINISHED' : 'FRAME';
  if (report.status !== 200 || report.lastType !== expectedLast || report.error) {
    throw new Error(
      `${what} via ${path}: HTTP ${report.status}, last ${report.lastType || 'nothing'}, ${report.events} events` +
        (report.error ? `, ${report.error}` : ''),
    );
  }
}
