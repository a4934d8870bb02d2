import { verifyEvents } from '@ag-ui/client';
import { EventType, type BaseEvent } from '@ag-ui/core';
import {
  EventSchema,
  InterruptSchema,
  RunFinishedCancelledOutcomeSchema,
  RunFinishedInterruptOutcomeSchema,
  RunFinishedSuccessOutcomeSchema,
  TokenUsageSchema,
} from '@ag-ui/core/schemas';
import { from, lastValueFrom, toArray } from 'rxjs';

/**
 * The AG-UI 1.0 conformance check every mapper/run test runs its event array through (docs/architecture.md#decisions,
 * agui docs/behaviour/http.md#request-checks, docs/behaviour/run-input.md#tools, docs/behaviour/run-input.md). It is stricter than a client: `EventSchema` alone accepts unknown keys
 * (every object is a zod looseObject) and `verifyEvents` ignores them, so keys are checked against each
 * event type's own schema shape here. Throws an Error naming the event index and the rule broken.
 */
export async function expectConformantEvents(events: BaseEvent[]): Promise<void> {
  if (events.length === 0) throw new Error('AG-UI conformance: the stream has no events');
  events.forEach((event, index) => {
    const where = `event #${index} (${String(event.type)})`;
    const parsed = EventSchema.safeParse(event);
    if (!parsed.success)
      throw new Error(`AG-UI conformance: ${where} fails EventSchema: ${parsed.error.message}`);
    expectNoUnknownKeys(event, where);
    if (!Number.isInteger(event.timestamp)) {
      throw new Error(`AG-UI conformance: ${where} timestamp ${String(event.timestamp)} is not an integer`);
    }
    const nullPath = findNull(event);
    if (nullPath !== undefined) throw new Error(`AG-UI conformance: ${where} has null at ${nullPath}`);
  });
  const last = events[events.length - 1];
  if (last.type !== EventType.RUN_FINISHED && last.type !== EventType.RUN_ERROR) {
    throw new Error(
      `AG-UI conformance: the last event is ${String(last.type)}, not RUN_FINISHED or RUN_ERROR`,
    );
  }
  // The client's own state machine: pairing, order, nothing after the terminal event (docs/behaviour/run-input.md#tools).
  await lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
}

type ObjectSchema = { shape: Record<string, unknown> };

const EVENT_KEYS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (EventSchema.options as readonly ObjectSchema[]).map((schema) => {
    const literal = schema.shape.type as { value: string };
    return [literal.value, new Set(Object.keys(schema.shape))];
  }),
);

const keysOf = (schema: ObjectSchema): ReadonlySet<string> => new Set(Object.keys(schema.shape));
const TOKEN_USAGE_KEYS = keysOf(TokenUsageSchema);
const INTERRUPT_KEYS = keysOf(InterruptSchema);
const OUTCOME_KEYS: Record<string, ReadonlySet<string>> = {
  success: keysOf(RunFinishedSuccessOutcomeSchema),
  interrupt: keysOf(RunFinishedInterruptOutcomeSchema),
  cancelled: keysOf(RunFinishedCancelledOutcomeSchema),
};

/**
 * Throws unless every key of the event is declared by its type's schema, and likewise for the nested
 * objects the gateway builds itself (usage entries, the RUN_FINISHED outcome and its interrupts).
 */
export function expectNoUnknownKeys(event: BaseEvent, where = `event ${String(event.type)}`): void {
  const allowed = EVENT_KEYS.get(event.type);
  if (!allowed) throw new Error(`AG-UI conformance: ${where} has an unknown type`);
  expectKeys(event, allowed, where);
  if (Array.isArray(event.usage)) {
    event.usage.forEach((entry: object, i: number) =>
      expectKeys(entry, TOKEN_USAGE_KEYS, `${where} usage[${i}]`),
    );
  }
  const outcome = event.outcome as { type?: string; interrupts?: object[] } | undefined;
  if (event.type === EventType.RUN_FINISHED && outcome) {
    expectKeys(outcome, OUTCOME_KEYS[outcome.type ?? ''] ?? new Set(), `${where} outcome`);
    outcome.interrupts?.forEach((entry, i) => expectKeys(entry, INTERRUPT_KEYS, `${where} interrupts[${i}]`));
  }
}

function expectKeys(value: object, allowed: ReadonlySet<string>, where: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.has(key));
  if (unknown.length > 0)
    throw new Error(`AG-UI conformance: ${where} has unknown key(s) ${unknown.join(', ')}`);
}

// Opaque payloads where null is data, not an unset optional field (docs/architecture.md#decisions).
const OPAQUE_ANYWHERE = new Set(['metadata', 'rawEvent']);
const OPAQUE_BY_TYPE: Partial<Record<EventType, string>> = {
  [EventType.CUSTOM]: 'value',
  [EventType.RAW]: 'event',
  [EventType.STATE_SNAPSHOT]: 'snapshot',
  [EventType.ACTIVITY_SNAPSHOT]: 'content',
  [EventType.RUN_FINISHED]: 'result',
};

/** The JSON path of the first `null` outside the opaque payloads, or undefined. */
function findNull(event: BaseEvent): string | undefined {
  const opaqueTop = OPAQUE_BY_TYPE[event.type];
  const walk = (value: unknown, path: string): string | undefined => {
    if (value === null) return path;
    if (typeof value !== 'object') return undefined;
    for (const [key, child] of Object.entries(value)) {
      if (OPAQUE_ANYWHERE.has(key)) continue;
      const found = walk(child, `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  };
  for (const [key, child] of Object.entries(event)) {
    if (key === opaqueTop || OPAQUE_ANYWHERE.has(key)) continue;
    const found = walk(child, key);
    if (found) return found;
  }
  return undefined;
}
