/**
 * Hostile requests for `npm run fuzz:memory`, on all four surfaces: valid run bodies mutated the way an attacker
 * or a broken client would, at the sizes that matter for memory. Per body, independently:
 * - a new thread id 9 times in 10 (the thread cache fills);
 * - a string field set to 64 KiB–4 MiB in 1 of 10, to 12 MiB + 1 in 2 in 100;
 * - an image part in 1 of 5, 9 MiB of base64 in 3 of 100 of those;
 * - deep JSON (a 50,000-level `state`), bad Unicode (a lone surrogate, or bytes that are not UTF-8) and a
 *   duplicate key, each in 1 of 20.
 * Surfaces: `POST /` 65 %, `/invocations` 15 %, the cancel route 5 %, `/ws` 15 %. Seeded (mulberry32), so a run
 * can be repeated; plain strings, not fast-check, so a 4 MiB field costs a `repeat`, not a shrinking tree.
 */
export type Surface = 'run' | 'invocations' | 'cancel' | 'ws';

export interface HostileRequest {
  readonly surface: Surface;
  /** Usually text; raw bytes when the body is deliberately not UTF-8. */
  readonly body: string | Buffer;
}

const KIB = 1024;
const MIB = 1024 * KIB;
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The fields a mutation may blow up: every string the gateway stores, logs or forwards. */
const STRING_FIELDS = [
  'threadId',
  'runId',
  'messageId',
  'text',
  'userId',
  'model',
  'channel',
  'pipelineName',
  'rosInvocationId',
  'toolCallId',
  'llmHeader',
] as const;
type StringField = (typeof STRING_FIELDS)[number];

export class HostileRequests {
  private serial = 0;

  /** `client` names this client's threads, so ten clients never share one by accident. */
  constructor(
    private readonly random: () => number,
    private readonly workspaceRoot: string,
    private readonly client: number,
  ) {}

  next(): HostileRequest {
    const roll = this.random();
    const surface: Surface = roll < 0.65 ? 'run' : roll < 0.8 ? 'invocations' : roll < 0.85 ? 'cancel' : 'ws';
    return { surface, body: surface === 'cancel' ? this.cancelBody() : this.runBody() };
  }

  private runBody(): string | Buffer {
    this.serial++;
    const big = this.bigField();
    const value = (field: StringField, normal: string) => (big?.field === field ? big.text : normal);
    const thread = this.random() < 0.9 ? this.serial : this.serial % 16;
    const threadId = `fuzz-${this.client}-thread-${thread}`;
    const parts: unknown[] = [{ type: 'text', text: value('text', 'hello') }];
    if (this.random() < 0.2) {
      const data = this.random() < 0.03 ? 'A'.repeat(9 * MIB) : PNG_1PX;
      parts.push({ type: 'image', source: { type: 'data', value: data, mimeType: 'image/png' } });
    }
    const body = {
      threadId: value('threadId', threadId),
      runId: value('runId', `run-${this.serial}`),
      messages: [
        {
          id: 'a1',
          role: 'assistant',
          toolCalls: [
            { id: value('toolCallId', 'call-1'), type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { id: value('messageId', `m-${this.serial}`), role: 'user', content: parts },
      ],
      forwardedProps: {
        iacCode: {
          schemaVersion: 1,
          rosInvocationId: value('rosInvocationId', `inv-${this.serial}`),
          cwd: this.workspaceRoot,
          userId: value('userId', 'user-1'),
          model: value('model', 'qwen-max'),
          channel: value('channel', 'console'),
          pipelineName: value('pipelineName', 'selling'),
          llmHeaders: { 'X-Trace': value('llmHeader', 'trace-1') },
        },
      },
    };
    let text = JSON.stringify(body);
    if (this.random() < 0.05)
      text = `{"state":${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)},${text.slice(1)}`;
    if (this.random() < 0.05) text = `{"threadId":"duplicate",${text.slice(1)}`;
    if (this.random() < 0.05) {
      if (this.random() < 0.5)
        return Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xff, 0xfe, 0x7d])]);
      text = text.replace('"hello"', '"\\ud800hello"');
    }
    return text;
  }

  private cancelBody(): string {
    const big = this.bigField();
    return JSON.stringify({
      threadId: big?.field === 'threadId' ? big.text : `fuzz-${this.client}-thread-${this.serial % 16}`,
      rosInvocationId: big?.field === 'rosInvocationId' ? big.text : 'inv-1',
    });
  }

  /** Which field, if any, this body blows up, and to what. */
  private bigField(): { field: StringField; text: string } | undefined {
    const roll = this.random();
    if (roll >= 0.12) return undefined;
    const field = STRING_FIELDS[Math.floor(this.random() * STRING_FIELDS.length)];
    const length = roll < 0.02 ? 12 * MIB + 1 : 64 * KIB + Math.floor(this.random() * (4 * MIB - 64 * KIB));
    return { field, text: 'x'.repeat(length) };
  }
}

/** How deep a deep `state` nests (`[[[…]]]`): JSON.parse takes it; a recursive walker would overflow. */
const DEEP_LEVELS = 50_000;
