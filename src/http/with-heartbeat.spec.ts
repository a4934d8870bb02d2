import { Subject } from 'rxjs';
import { HEARTBEAT_COMMENT, withHeartbeat } from './with-heartbeat';

describe('withHeartbeat', () => {
  // Jest's modern fake timers drive both setTimeout and Date.now, which the operator reads.
  const advance = (ms: number) => jest.advanceTimersByTime(ms);

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function run() {
    const frames = new Subject<string>();
    const out: string[] = [];
    let completed = false;
    const subscription = frames
      .pipe(withHeartbeat(10))
      .subscribe({ next: (frame) => out.push(frame), complete: () => (completed = true) });
    return { frames, out, subscription, isCompleted: () => completed };
  }

  it('writes a comment after each period of silence, and restarts the wait after a frame', () => {
    const { frames, out } = run();
    frames.next('a');
    advance(9);
    expect(out).toEqual(['a']);
    advance(1);
    expect(out).toEqual(['a', HEARTBEAT_COMMENT]);
    advance(5);
    frames.next('b');
    advance(9);
    expect(out).toEqual(['a', HEARTBEAT_COMMENT, 'b']);
    advance(1);
    expect(out).toEqual(['a', HEARTBEAT_COMMENT, 'b', HEARTBEAT_COMMENT]);
    advance(30);
    // 30 ms more of silence: three more comments, one per period.
    expect(out.filter((frame) => frame === HEARTBEAT_COMMENT)).toHaveLength(5);
  });

  it('writes nothing while frames are frequent, and nothing after the stream ends', () => {
    const { frames, out, isCompleted } = run();
    for (let i = 0; i < 10; i += 1) {
      frames.next(`f${i}`);
      advance(4);
    }
    expect(out).not.toContain(HEARTBEAT_COMMENT);
    frames.complete();
    advance(100);
    expect(isCompleted()).toBe(true);
    expect(out).not.toContain(HEARTBEAT_COMMENT);
  });

  it('stops its timer when unsubscribed (client gone)', () => {
    const { out, subscription } = run();
    subscription.unsubscribe();
    advance(100);
    expect(out).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
