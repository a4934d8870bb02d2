import { PIPELINE_CUSTOM_EVENT_TYPES } from './pipeline-event-types';

// The documented list (the iac-code.pipeline.v1 contract of the original), by its groups.
const DOCUMENTED_TYPES = [
  'pipeline_started pipeline_resumed pipeline_completed pipeline_error pipeline_warning backup_blocked',
  'candidate_started candidate_completed candidate_failed candidate_interrupted candidate_restart_requested',
  'candidate_selected candidate_detail_shown candidate_step_failed',
  'sub_pipeline_started sub_pipeline_completed sub_step_failed step_failed',
  'stack_progress stack_instances_progress stack_current_changed',
  'cleanup_started cleanup_progress cleanup_completed cleanup_failed',
  'rollback_triggered rollback_completed',
  'context_compaction_started context_compacted context_compaction_failed fields_marked_stale',
  'diagram_shown mcp_status tool_progress',
].flatMap((group) => group.split(' '));

// The published adapter's own list (its `_AGUI_PIPELINE_CUSTOM_EVENT_TYPES`), alphabetical as there.
const ADAPTER_TYPES =
  `backup_blocked, candidate_completed, candidate_detail_shown, candidate_failed, candidate_interrupted,
  candidate_restart_requested, candidate_selected, candidate_started, candidate_step_failed, cleanup_completed,
  cleanup_failed, cleanup_progress, cleanup_started, context_compacted, context_compaction_failed,
  context_compaction_started, diagram_shown, fields_marked_stale, mcp_status, pipeline_completed, pipeline_error,
  pipeline_resumed, pipeline_started, pipeline_warning, rollback_completed, rollback_triggered,
  stack_current_changed, stack_instances_progress, stack_progress, step_failed, sub_pipeline_completed,
  sub_pipeline_started, sub_step_failed, tool_progress`
    .split(',')
    .map((type) => type.trim());

describe('PIPELINE_CUSTOM_EVENT_TYPES', () => {
  it('is exactly the documented list (34 types)', () => {
    expect(DOCUMENTED_TYPES).toHaveLength(34);
    expect([...PIPELINE_CUSTOM_EVENT_TYPES].sort()).toEqual([...DOCUMENTED_TYPES].sort());
  });

  it("matches the published adapter's list too: the two do not differ", () => {
    expect([...ADAPTER_TYPES].sort()).toEqual([...DOCUMENTED_TYPES].sort());
  });

  it.each([
    'text_delta',
    'thinking_delta',
    'tool_started',
    'tool_result',
    'usage',
    'step_started',
    'step_completed',
    'candidate_step_started',
    'candidate_step_completed',
    'input_received',
    'message_started',
    'context_usage',
    'permission_requested',
    'backup_committed',
    'pipeline_progress',
  ])('%s is not forwarded as CUSTOM', (type) => expect(PIPELINE_CUSTOM_EVENT_TYPES.has(type)).toBe(false));
});
