/** What the kernel-upstream process and its launcher agree on (kept apart so importing it starts nothing). */
export const KERNEL_UPSTREAM_READY = 'KERNEL_UPSTREAM_READY';
/** Routes served only by the test entry, never by the embedded demo agent; never journaled. */
export const TEST_ROUTE_PREFIX = '/__test/';
/** `GET`: every other request the upstream saw (method, params, headers), oldest first. */
export const REQUEST_JOURNAL_PATH = '/__test/requests';
/** `POST {method, mode, times?, error?}` arms a fault for the next calls of a JSON-RPC method; `DELETE` disarms all. */
export const FAULTS_PATH = '/__test/faults';
/** `POST` arms the scripts' `hold` steps (they wait); `DELETE` releases every waiting one and disarms. */
export const HOLDS_PATH = '/__test/holds';
/** `POST {mode}` switches how `/iac-code/session/ensure-restored` answers. */
export const ENSURE_RESTORED_MODE_PATH = '/__test/ensure-restored-mode';
/** `GET ?taskId=…&sequence=N` answers once the task's Pipeline has published sequence N (a long poll). */
export const PIPELINE_REACHED_PATH = '/__test/pipeline-reached';
