import { EventType, type BaseEvent, type CustomEvent } from '@ag-ui/core';
import { isWireObject, type WireObject } from '../wire/wire-value';

export const ARTIFACT_EVENT_NAME = 'iac-code.artifact.v1';

/** `artifact` of an artifact update → CUSTOM `iac-code.artifact.v1` `{schemaVersion: 1, ...artifact}` (docs/behaviour/events.md#mapping-order). */
export function mapArtifact(body: WireObject, now: number): BaseEvent[] {
  if (!isWireObject(body.artifact)) return [];
  const event: CustomEvent = {
    type: EventType.CUSTOM,
    name: ARTIFACT_EVENT_NAME,
    value: { schemaVersion: 1, ...body.artifact },
    timestamp: now,
  };
  return [event];
}
