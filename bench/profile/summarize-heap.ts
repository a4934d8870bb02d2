import { areaOf } from './summarize-cpu-profile';

/** A V8 sampling heap profile (`HeapProfiler.getSamplingProfile`), the parts this summary reads. */
export interface SamplingHeapNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  /** Bytes of the sampled allocations made here that were still alive when the profile was taken. */
  readonly selfSize: number;
  readonly children: readonly SamplingHeapNode[];
}

export interface HeapLine {
  readonly name: string;
  readonly kb: number;
}

const byKb = (totals: Map<string, number>, limit: number): HeapLine[] =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, bytes]) => ({ name, kb: Math.round(bytes / 102.4) / 10 }));

const isOwner = (area: string) => !area.startsWith('node:') && !area.startsWith('(');

/**
 * Pure: live sampled bytes by allocation site, attributed to the innermost frame that is a package or the gateway's
 * own code (`node:internal` and native frames are the loader or the runtime acting for it); `(boot)` when no such
 * frame is on the stack.
 */
export function heapBySite(
  head: SamplingHeapNode,
  limit = 20,
): { byArea: HeapLine[]; byFunction: HeapLine[] } {
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const walk = (node: SamplingHeapNode, owner: { area: string; name: string } | undefined) => {
    const { url, functionName, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    const file = url.slice(url.lastIndexOf('/') + 1);
    const here = isOwner(area)
      ? { area, name: `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}` }
      : owner;
    if (node.selfSize > 0) {
      const key = here ?? { area: '(runtime)', name: `${functionName || '(anonymous)'} ${area}` };
      areas.set(key.area, (areas.get(key.area) ?? 0) + node.selfSize);
      functions.set(key.name, (functions.get(key.name) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, undefined);
  return { byArea: byKb(areas, limit), byFunction: byKb(functions, limit) };
}

/** A heap snapshot's node table, the parts this summary reads (`HeapProfiler.takeHeapSnapshot`'s JSON). */
export interface HeapSnapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Pure: self size and count by object kind (`type` and, for objects and closures, the constructor or function). */
export function snapshotByKind(snapshot: HeapSnapshot): Map<string, { bytes: number; count: number }> {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snapshot.snapshot.meta.node_types[0];
  const kinds = new Map<string, { bytes: number; count: number }>();
  for (let index = 0; index < snapshot.nodes.length; index += width) {
    const type = types[snapshot.nodes[index + typeAt]];
    const named = type === 'object' || type === 'closure' || type === 'native';
    const kind = named ? `${type} ${snapshot.strings[snapshot.nodes[index + nameAt]]}` : `(${type})`;
    const entry = kinds.get(kind) ?? { bytes: 0, count: 0 };
    entry.bytes += snapshot.nodes[index + sizeAt];
    entry.count += 1;
    kinds.set(kind, entry);
  }
  return kinds;
}

/** Pure: what `after` holds more than `before`, per kind, largest first, divided by `per` (e.g. the open runs). */
export function kindGrowth(
  before: Map<string, { bytes: number; count: number }>,
  after: Map<string, { bytes: number; count: number }>,
  per: number,
  limit = 25,
): { kind: string; bytesEach: number; countEach: number }[] {
  return [...after.entries()]
    .map(([kind, { bytes, count }]) => ({
      kind,
      bytesEach: Math.round((bytes - (before.get(kind)?.bytes ?? 0)) / per),
      countEach: Math.round(((count - (before.get(kind)?.count ?? 0)) / per) * 100) / 100,
    }))
    .sort((a, b) => b.bytesEach - a.bytesEach)
    .slice(0, limit);
}
