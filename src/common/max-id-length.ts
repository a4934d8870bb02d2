import { STRING_BOUNDS } from './string-bounds';

/**
 * Longest `threadId`, `runId` or message id accepted (docs/behaviour/bounds.md): an id is kept in the thread's
 * state, its file name and every log line of the run, so its size is bounded before any work is done.
 * Counted in characters (code points), as class-validator's MaxLength counts.
 */
export const MAX_ID_LENGTH = STRING_BOUNDS.id;
