/**
 * Settings folded into fixed bounds (docs/operations.md#settings): still read for this release, each with one
 * warning at boot that names what replaces it; removed in the next release.
 */
const DEPRECATED_SETTINGS: Readonly<Record<string, string>> = {
  IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS:
    '`node --expose-gc` on the command line (the memory reclaimer then runs, looking every 10 s)',
  IAC_CODE_AGUI_THREAD_CACHE_SIZE:
    'IAC_CODE_AGUI_THREAD_CACHE_BYTES (it bounds the idle threads; their count is fixed at 2000)',
  IAC_CODE_AGUI_REATTACH_MAX_EVENTS:
    "IAC_CODE_AGUI_REATTACH_MAX_BYTES (it bounds a run's event log; its count is fixed at 20000)",
};

/** One warning per deprecated setting present in `env`, naming the old setting and what replaces it. */
export function deprecatedSettingWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(DEPRECATED_SETTINGS)
    .filter(([name]) => env[name] !== undefined)
    .map(
      ([name, replacement]) =>
        `${name} is deprecated: it is read in this release only and removed in the next; use ${replacement}.`,
    );
}
