import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's `gc` as `node --expose-gc` gives it, for a test process started without the flag: turned on just long
 * enough for a new context to get it. Tests only: the product never changes V8's flags at run time.
 */
export function exposedGc(): (options?: unknown) => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as (options?: unknown) => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
