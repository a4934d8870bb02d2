import { TestScheduler } from 'rxjs/testing';
import { HEARTBEAT_COMMENT, withHeartbeat } from './with-heartbeat';

describe('withHeartbeat', () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const h = HEARTBEAT_COMMENT;

  it('writes a comment after each period of silence and restarts the wait after a frame', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames = cold('a 14ms b 34ms c|');
      expectObservable(frames.pipe(withHeartbeat(10))).toBe('a 9ms h 4ms b 9ms h 9ms h 9ms h 4ms c|', {
        a: 'a',
        b: 'b',
        c: 'c',
        h,
      });
    });
  });

  it('writes nothing after the stream ends and nothing when frames are frequent', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('a 4ms b 4ms c|').pipe(withHeartbeat(10))).toBe('a 4ms b 4ms c|');
    });
  });
});
