/**
 * The keys of the shared run log on Redis, all under `<prefix>runlog:`: a record per run found by thread
 * and by execution, and per run token its stream of events, its owner's mark and its remote readers.
 */
export class RedisRunLogKeys {
  constructor(private readonly prefix: string) {}

  thread(threadId: string): string {
    return this.key(`thread:${threadId}`);
  }

  execution(executionId: string): string {
    return this.key(`execution:${executionId}`);
  }

  events(runToken: string): string {
    return this.key(`${runToken}:events`);
  }

  owner(runToken: string): string {
    return this.key(`${runToken}:owner`);
  }

  readers(runToken: string): string {
    return this.key(`${runToken}:readers`);
  }

  private key(suffix: string): string {
    return `${this.prefix}runlog:${suffix}`;
  }
}

/** The sequence of a stream entry id: `<sequence>-0` for a frame, `<last>-1` for the end. */
export function sequenceOf(streamId: string): number {
  return Number(streamId.slice(0, streamId.indexOf('-')));
}
