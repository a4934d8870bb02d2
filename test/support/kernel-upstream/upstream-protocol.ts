/** What the kernel-upstream process and its launcher agree on (kept apart so importing it starts nothing). */
export const KERNEL_UPSTREAM_READY = 'KERNEL_UPSTREAM_READY';
/** The request journal, served only by the test entry, never by the embedded demo agent. */
export const REQUEST_JOURNAL_PATH = '/__test/requests';
