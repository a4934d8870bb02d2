import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents, expectNoUnknownKeys } from './agui-conformance';

const NOW = 1_700_000_000_000;
const started: BaseEvent = { type: EventType.RUN_STARTED, threadId: 't1', runId: 'r1', timestamp: NOW };
const finished: BaseEvent = {
  type: EventType.RUN_FINISHED,
  threadId: 't1',
  runId: 'r1',
  outcome: { type: 'success' },
  timestamp: NOW,
};
const textStart: BaseEvent = {
  type: EventType.TEXT_MESSAGE_START,
  messageId: 'm1',
  role: 'assistant',
  timestamp: NOW,
};
const textEnd: BaseEvent = { type: EventType.TEXT_MESSAGE_END, messageId: 'm1', timestamp: NOW };

describe('expectConformantEvents', () => {
  it('accepts a balanced run, with null only inside CUSTOM.value', async () => {
    const custom: BaseEvent = { type: EventType.CUSTOM, name: 'x', value: { taskId: null }, timestamp: NOW };
    await expect(
      expectConformantEvents([started, custom, textStart, textEnd, finished]),
    ).resolves.toBeUndefined();
  });

  it('accepts a RUN_ERROR that is exactly {type, code, message, timestamp}', async () => {
    const error: BaseEvent = { type: EventType.RUN_ERROR, code: 'CANCELLED', message: 'm', timestamp: NOW };
    await expect(expectConformantEvents([started, error])).resolves.toBeUndefined();
  });

  const rejected: { name: string; events: BaseEvent[]; error: RegExp }[] = [
    {
      name: 'an unknown key',
      events: [started, { ...textStart, extra: 1 }, textEnd, finished],
      error: /event #1 \(TEXT_MESSAGE_START\) has unknown key\(s\) extra/,
    },
    {
      name: 'a float timestamp',
      events: [started, { ...finished, timestamp: NOW + 0.5 }],
      error: /event #1 \(RUN_FINISHED\) fails EventSchema/,
    },
    {
      name: 'a missing timestamp',
      events: [started, { type: EventType.RUN_FINISHED, threadId: 't1', runId: 'r1' }],
      error: /timestamp undefined is not an integer/,
    },
    {
      name: 'an unclosed text message before RUN_FINISHED',
      events: [started, textStart, finished],
      error: /text messages are still active/,
    },
    {
      name: 'a RUN_ERROR with a threadId',
      events: [
        started,
        { type: EventType.RUN_ERROR, threadId: 't1', code: 'X', message: 'm', timestamp: NOW },
      ],
      error: /RUN_ERROR\) has unknown key\(s\) threadId/,
    },
    {
      // The schema itself turns `state: null` into "absent", so only the null walk can catch this one.
      name: 'a null that the schema tolerates',
      events: [{ ...started, input: { threadId: 't1', runId: 'r1', messages: [], state: null } }, finished],
      error: /event #0 \(RUN_STARTED\) has null at input\.state/,
    },
    {
      name: 'a null optional field',
      events: [
        started,
        {
          type: EventType.TOOL_CALL_START,
          toolCallId: 'c',
          toolCallName: 'n',
          parentMessageId: null,
          timestamp: NOW,
        },
      ],
      error: /event #1 \(TOOL_CALL_START\) fails EventSchema/,
    },
    {
      name: 'a stream that does not end with a terminal event',
      events: [started, textStart, textEnd],
      error: /last event is TEXT_MESSAGE_END/,
    },
    {
      name: 'an unknown key in a usage entry',
      events: [started, { ...finished, usage: [{ inputTokens: 1, costUsd: 2 }] }],
      error: /usage\[0\] has unknown key\(s\) costUsd/,
    },
    { name: 'an empty stream', events: [], error: /no events/ },
  ];

  it.each(rejected)('rejects $name', async ({ events, error }) => {
    await expect(expectConformantEvents(events)).rejects.toThrow(error);
  });
});

describe('expectNoUnknownKeys', () => {
  it('passes declared keys and names the undeclared one', () => {
    expect(() => expectNoUnknownKeys(textStart)).not.toThrow();
    expect(() => expectNoUnknownKeys({ ...finished, outcome: { type: 'success', extra: true } })).toThrow(
      /outcome has unknown key\(s\) extra/,
    );
  });
});
