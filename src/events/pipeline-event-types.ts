/** CUSTOM name and ACTIVITY_SNAPSHOT activityType of the Pipeline projection (docs/behaviour/events.md#pipeline-envelopes, docs/behaviour/events.md#pipeline-recovery). */
export const PIPELINE_EVENT_NAME = 'iac-code.pipeline.v1';

/**
 * Pipeline event types forwarded as CUSTOM `iac-code.pipeline.v1` with the envelope unchanged; nothing else
 * becomes CUSTOM (docs/behaviour/events.md#pipeline-envelopes). The list is the documented iac-code.pipeline.v1
 * contract, grouped as there; the published adapter's own list (`_AGUI_PIPELINE_CUSTOM_EVENT_TYPES`) has the same
 * 34 types — `pipeline-event-types.spec.ts` pins both. Standard signals (text_delta, thinking_delta,
 * tool_started, tool_result, usage, step lifecycle) have AG-UI events of their own and are never duplicated.
 */
export const PIPELINE_CUSTOM_EVENT_TYPES: ReadonlySet<string> = new Set([
  // Pipeline
  'pipeline_started',
  'pipeline_resumed',
  'pipeline_completed',
  'pipeline_error',
  'pipeline_warning',
  'backup_blocked',
  // candidates
  'candidate_started',
  'candidate_completed',
  'candidate_failed',
  'candidate_interrupted',
  'candidate_restart_requested',
  'candidate_selected',
  'candidate_detail_shown',
  'candidate_step_failed',
  // sub-Pipelines and step errors
  'sub_pipeline_started',
  'sub_pipeline_completed',
  'sub_step_failed',
  'step_failed',
  // stacks and cleanup
  'stack_progress',
  'stack_instances_progress',
  'stack_current_changed',
  'cleanup_started',
  'cleanup_progress',
  'cleanup_completed',
  'cleanup_failed',
  // rollback
  'rollback_triggered',
  'rollback_completed',
  // context
  'context_compaction_started',
  'context_compacted',
  'context_compaction_failed',
  'fields_marked_stale',
  // presentation and tools
  'diagram_shown',
  'mcp_status',
  'tool_progress',
]);

/** Types that open a step; `input_received` reopens one closed while waiting for a selection. */
export const PIPELINE_STEP_START_TYPES: ReadonlySet<string> = new Set([
  'step_started',
  'candidate_step_started',
  'input_received',
]);

/** Types that finish a step. `step_failed` and `candidate_step_failed` are also CUSTOM (docs/behaviour/events.md#pipeline-envelopes). */
export const PIPELINE_STEP_FINISH_TYPES: ReadonlySet<string> = new Set([
  'step_completed',
  'step_failed',
  'candidate_step_completed',
  'candidate_step_failed',
]);
