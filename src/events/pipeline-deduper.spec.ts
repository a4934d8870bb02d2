import { PipelineDeduper } from './pipeline-deduper';

type Envelope = Record<string, unknown>;
interface DedupeCase {
  name: string;
  /** Envelopes accepted (live) first, to set up the seen ids and the cursor. */
  before: Envelope[];
  envelope: Envelope;
  live: boolean;
  recovered: boolean;
}

// docs/behaviour/events.md#pipeline-envelopes (live) and docs/behaviour/events.md#pipeline-recovery step 2 (recovery): the same envelope, judged by both rules.
const cases: DedupeCase[] = [
  {
    name: 'a new id above the cursor',
    before: [{ eventId: 'a', sequence: 1 }],
    envelope: { eventId: 'b', sequence: 2 },
    live: true,
    recovered: true,
  },
  {
    name: 'a seen id',
    before: [{ eventId: 'a', sequence: 1 }],
    envelope: { eventId: 'a', sequence: 9 },
    live: false,
    recovered: false,
  },
  {
    name: 'a new id below the cursor',
    before: [{ eventId: 'a', sequence: 5 }],
    envelope: { eventId: 'b', sequence: 4 },
    live: false,
    recovered: true,
  },
  {
    name: 'a new id at the cursor',
    before: [{ eventId: 'a', sequence: 5 }],
    envelope: { eventId: 'b', sequence: 5 },
    live: false,
    recovered: true,
  },
  {
    name: 'no id, below the cursor',
    before: [{ sequence: 5 }],
    envelope: { sequence: 3 },
    live: false,
    recovered: false,
  },
  {
    name: 'no id, above the cursor',
    before: [{ sequence: 5 }],
    envelope: { sequence: 6 },
    live: true,
    recovered: true,
  },
  {
    name: 'no id, no sequence',
    before: [{ sequence: 5 }],
    envelope: { eventType: 'x' },
    live: true,
    recovered: true,
  },
  {
    name: 'sequence 0 never counts as below',
    before: [{ sequence: 5 }],
    envelope: { sequence: 0 },
    live: true,
    recovered: true,
  },
  {
    name: 'a negative sequence is below any cursor',
    before: [],
    envelope: { sequence: -1 },
    live: false,
    recovered: false,
  },
  {
    name: 'an integral float sequence counts',
    before: [{ sequence: 5 }],
    envelope: { sequence: 5.0 },
    live: false,
    recovered: false,
  },
  {
    name: 'a fractional sequence is none',
    before: [{ sequence: 5 }],
    envelope: { sequence: 4.5 },
    live: true,
    recovered: true,
  },
  {
    name: 'a boolean sequence is none',
    before: [{ sequence: 5 }],
    envelope: { sequence: true },
    live: true,
    recovered: true,
  },
  {
    name: 'an empty id is no id',
    before: [{ eventId: '', sequence: 5 }],
    envelope: { eventId: '', sequence: 2 },
    live: false,
    recovered: false,
  },
];

describe('PipelineDeduper', () => {
  it.each(cases)('$name', ({ before, envelope, live, recovered }) => {
    const setUp = () => {
      const deduper = new PipelineDeduper();
      for (const earlier of before) expect(deduper.acceptLive(earlier)).toBe(true);
      return deduper;
    };
    expect(setUp().acceptLive(envelope)).toBe(live);
    expect(setUp().acceptRecovered(envelope)).toBe(recovered);
  });

  it('records one entry per distinct accepted id and raises the cursor only forward', () => {
    const deduper = new PipelineDeduper();
    deduper.acceptLive({ eventId: 'a', sequence: 3 });
    deduper.acceptLive({ eventId: 'a', sequence: 4 });
    deduper.acceptLive({ eventId: 'b', sequence: 2 }); // below the cursor: dropped, not recorded
    deduper.acceptRecovered({ eventId: 'c', sequence: 1 });
    deduper.raiseCursor(2);
    expect([deduper.seenCount, deduper.hasSeen('a'), deduper.hasSeen('b'), deduper.hasSeen('c')]).toEqual([
      2,
      true,
      false,
      true,
    ]);
    expect(deduper.sequenceCursor).toBe(3);
    deduper.raiseCursor(10);
    expect(deduper.sequenceCursor).toBe(10);
  });
});
