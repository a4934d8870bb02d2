import { KernelGuidance } from './kernel-guidance';
import { KernelHolds } from './kernel-holds';
import { KernelSessionRestore } from './kernel-session-restore';
import { PendingKernelInputs } from './pending-kernel-inputs';
import { PipelineJournal } from './pipeline-journal';

/**
 * What the scripted kernel remembers across requests, shared by the executor (which writes it as it
 * plays scripts) and the HTTP side (which checks answers and serves the extension routes from it).
 */
export interface KernelSharedState {
  readonly inputs: PendingKernelInputs;
  readonly pipelines: PipelineJournal;
  readonly sessions: KernelSessionRestore;
  readonly guidance: KernelGuidance;
  readonly holds: KernelHolds;
}

export function createKernelSharedState(
  sessions = new KernelSessionRestore(),
  holds = new KernelHolds(),
  pipelines = new PipelineJournal(),
): KernelSharedState {
  return {
    inputs: new PendingKernelInputs(),
    pipelines,
    sessions,
    guidance: new KernelGuidance(),
    holds,
  };
}
