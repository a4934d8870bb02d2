import { readFileSync } from 'node:fs';

/**
 * Where a process's resident memory is, read from outside (no code in the measured process):
 * - the V8 heap and Node's external memory from the gateway's own `/metrics` (prom-client's default metrics);
 * - resident pages by kind of mapping from `/proc/<pid>/smaps`: glibc's main arena (`[heap]`), glibc's thread
 *   arenas (anonymous read-write mappings at a 64 MiB boundary, the arena size), the rest of the anonymous
 *   memory (V8's heap pages, large `mmap`ped allocations, thread stacks) and file-backed pages (code).
 */
export interface MemoryBreakdown {
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
  readonly externalMb: number;
  readonly mallocMainArenaMb: number;
  readonly mallocThreadArenasMb: number;
  readonly threadArenas: number;
  readonly otherAnonymousMb: number;
  readonly fileBackedMb: number;
}

/** glibc's HEAP_MAX_SIZE on 64-bit: a thread arena is a mapping of this size, aligned to it. */
const ARENA_BYTES = 64 * 1024 * 1024;
const MB = 1024 * 1024;

export async function memoryBreakdown(pid: number, gatewayUrl: string): Promise<MemoryBreakdown> {
  const metrics = await fetch(`${gatewayUrl}metrics`).then(
    (response) => response.text(),
    () => '',
  );
  const gauge = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  const mappings = residentByMapping(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  return {
    rssMb: round(mappings.total / MB),
    heapUsedMb: round(gauge('nodejs_heap_size_used_bytes') / MB),
    heapTotalMb: round(gauge('nodejs_heap_size_total_bytes') / MB),
    externalMb: round(gauge('nodejs_external_memory_bytes') / MB),
    mallocMainArenaMb: round(mappings.mainArena / MB),
    mallocThreadArenasMb: round(mappings.threadArenas / MB),
    threadArenas: mappings.threadArenaCount,
    otherAnonymousMb: round(mappings.otherAnonymous / MB),
    fileBackedMb: round(mappings.fileBacked / MB),
  };
}

export function formatBreakdown(breakdown: MemoryBreakdown): string {
  const b = breakdown;
  return (
    `RSS ${b.rssMb} MB = glibc main arena ${b.mallocMainArenaMb} + ${b.threadArenas} thread arenas ` +
    `${b.mallocThreadArenasMb} + other anonymous (V8 heap, mmap'd blocks, stacks) ${b.otherAnonymousMb} + ` +
    `files ${b.fileBackedMb} MB; V8 heap used ${b.heapUsedMb} of ${b.heapTotalMb} MB, external ${b.externalMb} MB`
  );
}

/** Resident bytes of a `/proc/<pid>/smaps` text, by kind of mapping (see the header). */
export function residentByMapping(smaps: string) {
  const totals = {
    total: 0,
    mainArena: 0,
    threadArenas: 0,
    threadArenaCount: 0,
    otherAnonymous: 0,
    fileBacked: 0,
  };
  const regions: { start: number; end: number; perms: string; name: string; rss: number }[] = [];
  for (const line of smaps.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const [start, end] = [Number.parseInt(header[1], 16), Number.parseInt(header[2], 16)];
      regions.push({ start, end, perms: header[3], name: header[4], rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && regions.length > 0) regions[regions.length - 1].rss = Number(rss[1]) * 1024;
  }
  regions.forEach((region, index) => {
    totals.total += region.rss;
    const next = regions[index + 1];
    // A thread arena: read-write from a 64 MiB boundary, the rest of its 64 MiB reserved (---p) right after.
    const isArena =
      region.name === '' &&
      region.perms.startsWith('rw') &&
      region.start % ARENA_BYTES === 0 &&
      (region.end - region.start === ARENA_BYTES ||
        (next?.name === '' &&
          next.perms === '---p' &&
          next.start === region.end &&
          next.end === region.start + ARENA_BYTES));
    if (region.name === '[heap]') totals.mainArena += region.rss;
    else if (isArena) {
      totals.threadArenas += region.rss;
      totals.threadArenaCount++;
    } else if (region.name.startsWith('/')) totals.fileBacked += region.rss;
    else totals.otherAnonymous += region.rss;
  });
  return totals;
}

const round = (value: number) => Math.round(value * 10) / 10;
