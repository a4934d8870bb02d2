import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { ByteBudget } from './byte-budget';
import { followRun } from './follow-run';
import { RetainedRun } from './retained-run';
import { RunEventLog } from './run-event-log';

const TOKEN = '0123456789abcdef';
const frame = (type: string) => ({
  id: `${TOKEN}.x`,
  data: `data: ${JSON.stringify({ type, timestamp: 1 })}\n\n`,
});

/** A retained run whose log holds at most `maxEvents` frames (the oldest leave first while a reader follows). */
function retainedRun(maxEvents: number) {
  const state = threadStateFixture();
  const log = new RunEventLog(TOKEN, { maxEvents, maxBytes: 1 << 20, total: new ByteBudget(1 << 20) });
  return new RetainedRun(
    {
      threadId: state.threadId,
      runId: 'run-1',
      executionId: state.execution.executionId,
      runToken: TOKEN,
      admittedState: state,
    },
    log,
    { graceMs: 60_000, abandon: () => undefined, ended: () => undefined },
  );
}

/** followRun (docs/behaviour/reattach.md#routes): every frame after the cursor, then the live ones, to the end. */
describe('followRun', () => {
  it('writes the frames after its cursor and the live ones, then ends the sink with the run, one reader meanwhile', async () => {
    const run = retainedRun(100);
    for (const type of ['RUN_STARTED', 'A']) run.append(frame(type));
    const sink = new RecordingSink();
    const follower = followRun(run, 1, sink);
    expect(run.readerCount).toBe(2);
    run.append(frame('RUN_FINISHED'));
    run.runEnded();
    await follower.done;
    expect(sink.types()).toEqual(['A', 'RUN_FINISHED']);
    expect(sink.isEnded).toBe(true);
    expect(run.readerCount).toBe(1);
  });

  it('cuts a reader that fell behind the log with EVENTS_EXPIRED, never a clean end nor a stream with a hole', async () => {
    const run = retainedRun(3);
    for (const type of ['RUN_STARTED', 'A', 'B']) run.append(frame(type));
    const sink = new RecordingSink();
    // A slow client: its socket is full from the first frame on.
    sink.fill();
    const follower = followRun(run, 0, sink);
    await sink.written(1);
    // While it waits, the run goes on: the log (3 events) drops the frames it has not read yet.
    for (const type of ['C', 'D', 'E', 'F', 'RUN_FINISHED']) run.append(frame(type));
    run.runEnded();
    sink.drain();
    await follower.done;
    // What it had read in one go it writes; then the next read finds a gap, and it is cut.
    expect(sink.types()).toEqual(['RUN_STARTED', 'A', 'B']);
    expect(sink.isEnded).toBe(false);
    expect(sink.abortedWith).toBeInstanceOf(AguiError);
    expect((sink.abortedWith as AguiError).code).toBe(ErrorCode.EVENTS_EXPIRED);
    expect(run.readerCount).toBe(1);
  });

  it('stops writing when its client leaves, and counts as a reader no more', async () => {
    const run = retainedRun(100);
    run.append(frame('RUN_STARTED'));
    const sink = new RecordingSink();
    const follower = followRun(run, 0, sink);
    await sink.written(1);
    follower.stop();
    await follower.done;
    run.append(frame('A'));
    expect(sink.types()).toEqual(['RUN_STARTED']);
    expect(sink.isEnded).toBe(false);
    expect(run.readerCount).toBe(1);
  });
});
