import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import { mulberry32 } from '../../test/support/mulberry32';
import type { A2aFrame } from '../wire/a2a-wire';
import { A2aEventMapper } from './a2a-event-mapper';
import { PIPELINE_CUSTOM_EVENT_TYPES } from './pipeline-event-types';
import { runFinished, runStarted } from './run-events';

// "Done when": 10,000 Pipeline envelopes (duplicates, unknown types, parallel candidates) through
// one run: balanced, nothing emitted twice, and one dedupe entry per distinct event id.
const NOW = 1_700_000_000_000;
const RUN = { threadId: 'thread-1', runId: 'run-1' };
const DELIVERED = 10_000;
const CANDIDATES = ['cand-0', 'cand-1', 'cand-2', 'cand-3', 'cand-4'];
const UNKNOWN_TYPES = ['pipeline_progress', 'context_usage', 'message_started', 'backup_committed'];

type Envelope = Record<string, unknown>;

/** The next envelope of one candidate's lifecycle (repeated): start, step, text, thinking, tool, finish. */
function candidateEnvelope(candidate: string, phase: number, n: number, toolId: string): Envelope {
  const where = {
    scope: 'candidate_step',
    candidate: { runId: candidate },
    candidateStep: { id: 'template_generating' },
  };
  switch (phase) {
    case 0:
      return { eventType: 'candidate_started', candidate: { runId: candidate }, data: { n } };
    case 1:
      return { eventType: 'candidate_step_started', ...where };
    case 2:
    case 3:
    case 5:
      return { eventType: 'text_delta', ...where, data: { text: `text-${n}` } };
    case 4:
      return { eventType: 'thinking_delta', ...where, data: { type: 'raw_thinking', text: `think-${n}` } };
    case 6:
      return { eventType: 'tool_started', data: { toolUseId: toolId, toolName: 'bash', input: { n } } };
    case 7:
      return { eventType: 'tool_result', data: { toolUseId: toolId, result: `ok-${toolId}` } };
    case 8:
      return { eventType: 'candidate_step_completed', ...where };
    default:
      return { eventType: 'candidate_completed', candidate: { runId: candidate }, data: { n } };
  }
}
const PHASES = 10;

interface Scenario {
  /** Every distinct envelope, in sequence order (the ground truth). */
  unique: Envelope[];
  frames: A2aFrame[];
  /** Per frame: true when every envelope in it was delivered before (it must map to nothing). */
  isReplayOnly: boolean[];
  delivered: number;
}

function buildScenario(): Scenario {
  const random = mulberry32(5);
  const unique: Envelope[] = [];
  const delivery: { envelope: Envelope; isDuplicate: boolean }[] = [];
  const phase = new Map(CANDIDATES.map((candidate) => [candidate, 0]));
  const lifecycles = new Map<string, number>();
  const deliver = (fields: Envelope) => {
    const n = unique.length + 1;
    // One envelope in 8 has no eventId (only the sequence rule protects it), one in 8 no sequence (only
    // the id set does).
    const shape = random();
    const envelope = {
      ...(shape >= 0.125 && { eventId: `evt-${n}` }),
      ...(shape < 0.125 || shape >= 0.25 ? { sequence: n } : {}),
      ...fields,
    };
    unique.push(envelope);
    delivery.push({ envelope, isDuplicate: false });
  };
  deliver({ eventType: 'pipeline_started', data: {} });
  deliver({ eventType: 'step_started', step: { id: 'evaluate_candidates' } });
  while (delivery.length < DELIVERED) {
    const roll = random();
    if (roll < 0.3 && unique.length > 0) {
      // A replay of something already delivered: a batch/live twin or a snapshot suffix (a fresh copy).
      const original = unique[Math.floor(random() * unique.length)];
      delivery.push({ envelope: { ...original }, isDuplicate: true });
    } else if (roll < 0.4) {
      deliver({ eventType: UNKNOWN_TYPES[Math.floor(random() * UNKNOWN_TYPES.length)], data: { x: 1 } });
    } else if (roll < 0.42) {
      deliver({
        eventType: 'usage',
        data: { provider: 'p', model: 'm', inputTokens: 2, outputTokens: 1, totalTokens: 3 },
      });
    } else {
      const candidate = CANDIDATES[Math.floor(random() * CANDIDATES.length)];
      const current = phase.get(candidate) ?? 0;
      // Tool ids are per candidate lifecycle, so the result finds its call across interleaved candidates.
      const toolId = `tool-${candidate}-${lifecycles.get(candidate) ?? 0}`;
      deliver(candidateEnvelope(candidate, current, unique.length + 1, toolId));
      if (current === PHASES - 1) lifecycles.set(candidate, (lifecycles.get(candidate) ?? 0) + 1);
      phase.set(candidate, (current + 1) % PHASES);
    }
  }
  const frames: A2aFrame[] = [];
  const isReplayOnly: boolean[] = [];
  for (let i = 0; i < delivery.length;) {
    const size = random() < 0.3 ? 1 : 1 + Math.floor(random() * 5);
    const group = delivery.slice(i, i + size);
    i += group.length;
    const envelopes = group.map((item) => item.envelope);
    const iacCode =
      envelopes.length === 1 && random() < 0.5
        ? { pipeline: envelopes[0] }
        : { pipelineBatch: { events: envelopes } };
    frames.push({
      statusUpdate: {
        taskId: 'task-1',
        status: { state: 'TASK_STATE_WORKING' },
        metadata: { iac_code: iacCode },
      },
    });
    isReplayOnly.push(group.every((item) => item.isDuplicate));
  }
  return { unique, frames, isReplayOnly, delivered: delivery.length };
}

const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type);
const uniqueOfType = (unique: Envelope[], ...types: string[]) =>
  unique.filter((envelope) => types.includes(envelope.eventType as string));
const dataOf = (envelope: Envelope) => envelope.data as Record<string, unknown>;

describe('10,000 Pipeline envelopes through one run', () => {
  let scenario: Scenario;
  let unique: Envelope[];
  let mapper: A2aEventMapper;
  let perFrame: BaseEvent[][];
  let events: BaseEvent[];
  let closing: BaseEvent[];

  beforeAll(() => {
    scenario = buildScenario();
    unique = scenario.unique;
    mapper = new A2aEventMapper(RUN, () => 'id');
    perFrame = scenario.frames.map((frame) => mapper.map(frame, NOW));
    events = perFrame.flat();
    closing = mapper.closeAll(NOW);
  });

  it('is the scenario it claims: 10,000 envelopes, duplicates, unknown types, five candidates', () => {
    expect(scenario.delivered).toBe(DELIVERED);
    expect(unique.length).toBeLessThan(DELIVERED * 0.75);
    expect(uniqueOfType(unique, ...UNKNOWN_TYPES).length).toBeGreaterThan(500);
    expect(scenario.isReplayOnly.filter(Boolean).length).toBeGreaterThan(100);
    const candidates = new Set(
      uniqueOfType(unique, 'candidate_step_started').map((e) => JSON.stringify(e.candidate)),
    );
    expect(candidates.size).toBe(CANDIDATES.length);
  });

  it('passes the AG-UI conformance check, balanced after closeAll', async () => {
    await expectConformantEvents([
      runStarted(RUN, undefined, NOW),
      ...events,
      ...closing,
      runFinished(RUN, mapper.usage(), NOW),
    ]);
  });

  it('maps a frame that only replays delivered envelopes to nothing', () => {
    const replays = perFrame.filter((_, i) => scenario.isReplayOnly[i]);
    expect(replays.length).toBeGreaterThan(100);
    expect(replays.every((mapped) => mapped.length === 0)).toBe(true);
  });

  it('emits each CUSTOM once per envelope, in order, only for allow-listed types', () => {
    const expected = unique.filter((envelope) =>
      PIPELINE_CUSTOM_EVENT_TYPES.has(envelope.eventType as string),
    );
    const customs = ofType(events, EventType.CUSTOM);
    expect(customs.map((event) => event.value)).toEqual(expected);
    const identities = customs.map((event) => {
      const value = event.value as Envelope;
      return String(value.eventId ?? `seq:${String(value.sequence)}`);
    });
    expect(new Set(identities).size).toBe(customs.length);
  });

  it('emits each text and reasoning delta, tool call and tool result exactly once', () => {
    const texts = uniqueOfType(unique, 'text_delta').map((envelope) => dataOf(envelope).text);
    expect(ofType(events, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(texts);
    const thoughts = uniqueOfType(unique, 'thinking_delta').map((envelope) => dataOf(envelope).text);
    expect(ofType(events, EventType.REASONING_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(thoughts);
    const tools = uniqueOfType(unique, 'tool_started').map((envelope) => dataOf(envelope).toolUseId);
    expect(ofType(events, EventType.TOOL_CALL_START).map((event) => event.toolCallId)).toEqual(tools);
    const results = uniqueOfType(unique, 'tool_result').map((envelope) => dataOf(envelope).toolUseId);
    expect(ofType(events, EventType.TOOL_CALL_RESULT).map((event) => event.toolCallId)).toEqual(results);
    // One START per message id: parallel candidate streams never close each other.
    expect(ofType(events, EventType.TEXT_MESSAGE_START)).toHaveLength(CANDIDATES.length);
  });

  it('starts and finishes each step once per lifecycle envelope; the durable set keeps open steps', () => {
    const starts = uniqueOfType(unique, 'step_started', 'candidate_step_started');
    const finishes = uniqueOfType(unique, 'candidate_step_completed');
    expect(ofType(events, EventType.STEP_STARTED)).toHaveLength(starts.length);
    expect(ofType(events, EventType.STEP_FINISHED)).toHaveLength(finishes.length);
    const stillOpen = ofType(closing, EventType.STEP_FINISHED).map((event) => event.stepName);
    expect(stillOpen).toContain('evaluate_candidates');
    expect(stillOpen).toHaveLength(starts.length - finishes.length);
    expect(mapper.durableOpenSteps).toHaveLength(stillOpen.length);
    expect(mapper.durableOpenSteps).toContain('step:evaluate_candidates');
  });

  it('holds one dedupe entry per distinct event id, and the cursor at the last sequence', () => {
    const ids = unique
      .map((envelope) => envelope.eventId)
      .filter((id): id is string => typeof id === 'string');
    expect(new Set(ids).size).toBe(ids.length);
    expect(mapper.seenPipelineEventIds).toBe(ids.length);
    expect(ids.every((id) => mapper.hasSeenPipelineEvent(id))).toBe(true);
    expect(mapper.hasSeenPipelineEvent('evt-0')).toBe(false);
    const sequences = unique
      .map((envelope) => envelope.sequence)
      .filter((n): n is number => typeof n === 'number');
    expect(sequences.length).toBeLessThan(unique.length);
    expect(mapper.pipelineCursor).toBe(Math.max(...sequences));
  });

  it('adds each usage envelope to the run usage once', () => {
    const count = uniqueOfType(unique, 'usage').length;
    expect(mapper.usage()).toEqual([
      {
        provider: 'p',
        model: 'm',
        inputTokens: 2 * count,
        outputTokens: count,
        totalTokens: 3 * count,
        cachedInputTokens: 0,
      },
    ]);
  });
});
