/** A V8 `.cpuprofile` (what `node --cpu-prof` writes), the parts this summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly children?: readonly number[];
  }[];
  /** Monotonic clock (CLOCK_MONOTONIC on Linux, like `process.hrtime`), in µs. */
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A monotonic-clock interval in µs (`process.hrtime.bigint() / 1000n` of any process on the host). */
export interface ProfileWindow {
  readonly fromUs: number;
  readonly toUs: number;
}

export interface ProfileLine {
  readonly name: string;
  readonly ms: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Self time by where the code lives: a package, Node internals, the gateway's own folders, GC. */
  readonly selfByArea: ProfileLine[];
  /** Self time by function. */
  readonly selfByFunction: ProfileLine[];
  /** Time with the function anywhere on the stack (counted once per sample, recursion included). */
  readonly inclusiveByFunction: ProfileLine[];
}

/** `node_modules/@scope/pkg/…` → `@scope/pkg`; `node:internal/…` → `node:internal`; `dist/runs/…` → `gateway runs/`. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return url.split('/')[0] === 'node:internal' ? 'node:internal' : url;
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return `gateway ${url.slice(dist + 6).split('/')[0]}/`;
  return url;
}

function functionKey(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url ? frame.url.slice(frame.url.lastIndexOf('/') + 1) : '';
  return `${frame.functionName || '(anonymous)'} ${file}${file ? `:${frame.lineNumber + 1}` : ''}`.trim();
}

function topLines(totals: Map<string, number>, totalUs: number, limit: number): ProfileLine[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({
      name,
      ms: Math.round(us / 100) / 10,
      percent: Math.round((us / totalUs) * 1000) / 10,
    }));
}

/**
 * Pure: aggregates sample time (µs deltas) by area and function, self and inclusive; idle excluded, and
 * only samples inside `window` when one is given (so start-up and warm-up stay out).
 */
export function summarizeCpuProfile(profile: CpuProfile, limit = 25, window?: ProfileWindow): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfArea = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let totalUs = 0;
  let sampledAtUs = profile.startTime;
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    sampledAtUs += us;
    if (window && (sampledAtUs < window.fromUs || sampledAtUs > window.toUs)) return;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    totalUs += us;
    add(selfArea, areaOf(node.callFrame.url, node.callFrame.functionName), us);
    add(selfFunction, functionKey(node.callFrame), us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const key = functionKey(byId.get(at)!.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, us);
    }
  });
  return {
    totalMs: Math.round(totalUs / 1000),
    selfByArea: topLines(selfArea, totalUs, limit),
    selfByFunction: topLines(selfFunction, totalUs, limit),
    inclusiveByFunction: topLines(inclusive, totalUs, limit),
  };
}
