import { EventType, type ActivitySnapshotEvent, type BaseEvent } from '@ag-ui/core';
import type { MapContext } from './map-context';
import { projectPipelineEnvelope } from './map-pipeline';
import { PIPELINE_EVENT_NAME } from './pipeline-event-types';
import { isWireObject, nonEmptyString, wireInteger } from '../wire/wire-value';

/**
 * The `/iac-code/pipeline/state` answer → AG-UI (docs/behaviour/events.md#pipeline-recovery): one replacing ACTIVITY_SNAPSHOT of the
 * whole Pipeline state, then the missed envelopes mapped like live ones under the recovery dedupe rule, then
 * the cursor raised to the snapshot's `lastSequence`. No snapshot object → no events, nothing changes.
 */
export function mapPipelineRecovery(state: unknown, ctx: MapContext): BaseEvent[] {
  if (!isWireObject(state) || !isWireObject(state.snapshot)) return [];
  const snapshot = state.snapshot;
  const pipeline = ctx.state.pipeline;
  pipeline.pipelineRunId = nonEmptyString(snapshot.pipelineRunId) ?? pipeline.pipelineRunId;
  const activity: ActivitySnapshotEvent = {
    type: EventType.ACTIVITY_SNAPSHOT,
    messageId: `pipeline:${pipeline.pipelineRunId}`,
    activityType: PIPELINE_EVENT_NAME,
    content: { schemaVersion: 1, pipelineRunId: pipeline.pipelineRunId, snapshot },
    replace: true,
    timestamp: ctx.now,
  };
  const events: BaseEvent[] = [activity];
  if (Array.isArray(state.events)) {
    for (const envelope of state.events) {
      if (!isWireObject(envelope) || !pipeline.deduper.acceptRecovered(envelope)) continue;
      for (const event of projectPipelineEnvelope(envelope, ctx)) events.push(event);
    }
  }
  pipeline.deduper.raiseCursor(wireInteger(snapshot.lastSequence) ?? 0);
  return events;
}
