import { HEARTBEAT_COMMENT, Heartbeat } from './with-heartbeat';

describe('Heartbeat', () => {
  // Jest's modern fake timers drive both setTimeout and Date.now, which the operator reads.
  const advance = (ms: number) => jest.advanceTimersByTime(ms);

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A stream of frames with its heartbeat, as SseStream writes them. */
  function run() {
    const out: string[] = [];
    const heartbeat = new Heartbeat(10, () => out.push(HEARTBEAT_COMMENT));
    const frames = {
      next: (frame: string) => {
        heartbeat.frameSent();
        out.push(frame);
      },
    };
    return { frames, out, heartbeat };
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
    const { frames, out, heartbeat } = run();
    for (let i = 0; i < 10; i += 1) {
      frames.next(`f${i}`);
      advance(4);
    }
    expect(out).not.toContain(HEARTBEAT_COMMENT);
    heartbeat.stop();
    advance(100);
    expect(out).toHaveLength(10);
    expect(out).not.toContain(HEARTBEAT_COMMENT);
  });

  it('stops its timer when stopped (client gone)', () => {
    const { out, heartbeat } = run();
    heartbeat.stop();
    advance(100);
    expect(out).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stops for good when stopped from inside a beat', () => {
    const out: string[] = [];
    const heartbeat: Heartbeat = new Heartbeat(10, () => {
      out.push(HEARTBEAT_COMMENT);
      heartbeat.stop();
    });
    advance(100);
    expect(out).toEqual([HEARTBEAT_COMMENT]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
