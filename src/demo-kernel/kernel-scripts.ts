import { DEMO_TURN_SCRIPT } from './demo-turn-script';
import {
  DROP_SCRIPT,
  FAIL_SCRIPT,
  HANG_CANCEL_SCRIPT,
  HTTP_500_SCRIPT,
  RPC_ERROR_SCRIPT,
  SILENT_SCRIPT,
  SLOW_SCRIPT,
  FLOOD_SCRIPT,
} from './faults/failure-scripts';
import { PERMISSION_SCRIPT, QUESTION_SCRIPT, TWO_PERMISSIONS_SCRIPT } from './interrupt-scripts';
import type { KernelScript, KernelScriptBook } from './kernel-script';
import { PIPELINE_SCRIPT } from './pipeline-script';
import { PIPELINE_SELECTION_SCRIPT } from './pipeline-selection-script';
import { firstKeyword } from './script-flags';

export { firstKeyword, scriptFlagsOf } from './script-flags';

export interface KernelScriptKeyword {
  /** The first word of the user message, compared case-insensitively. */
  readonly keyword: string;
  /** One line for the README: what the prompt shows. */
  readonly description: string;
  readonly script: KernelScript;
}

/** The prompts that show each feature of the scripted kernel; any other text plays `DEFAULT_KERNEL_SCRIPT`. */
export const KERNEL_SCRIPT_KEYWORDS: readonly KernelScriptKeyword[] = [
  {
    keyword: 'drop',
    description: 'the connection dies mid-stream while text, reasoning and a tool call are open',
    script: DROP_SCRIPT,
  },
  {
    keyword: 'rpc-error',
    description: 'a JSON-RPC error frame arrives after the stream started',
    script: RPC_ERROR_SCRIPT,
  },
  {
    keyword: 'http-500',
    description: 'the kernel answers HTTP 500 before any stream',
    script: HTTP_500_SCRIPT,
  },
  { keyword: 'fail', description: 'the task ends in TASK_STATE_FAILED', script: FAIL_SCRIPT },
  {
    keyword: 'slow',
    description: 'text deltas 300 ms apart for about 10 s, to disconnect or cancel mid-run',
    script: SLOW_SCRIPT,
  },
  {
    keyword: 'flood',
    description:
      '2,000 text deltas of 8 KiB in a burst (about 16 MiB), to see back-pressure on a slow client',
    script: FLOOD_SCRIPT,
  },
  {
    keyword: 'silent',
    description: 'nothing after WORKING until cancelled, so heartbeats can be observed',
    script: SILENT_SCRIPT,
  },
  {
    keyword: 'hang-cancel',
    description: 'like silent, but CancelTask never answers',
    script: HANG_CANCEL_SCRIPT,
  },
  {
    keyword: 'permission',
    description:
      'a bash tool asks permission; allow runs it, deny not (`slow-resume`: the rest takes seconds)',
    script: PERMISSION_SCRIPT,
  },
  {
    keyword: 'question',
    description: 'INPUT_REQUIRED with a Plan A / Plan B question; the text answer is echoed',
    script: QUESTION_SCRIPT,
  },
  {
    keyword: 'two-permissions',
    description: 'one direct and one sub-pipeline (sideband) permission; done when both are answered',
    script: TWO_PERMISSIONS_SCRIPT,
  },
  {
    keyword: 'pipeline',
    description: 'two parallel candidates; A waits for a sideband permission while B keeps streaming',
    script: PIPELINE_SCRIPT,
  },
  {
    keyword: 'pipeline-selection',
    description:
      'a candidate selection; the answer stream ends early and the Pipeline then goes on by itself',
    script: PIPELINE_SELECTION_SCRIPT,
  },
];

/** Any other text: a friendly infrastructure-as-code answer with reasoning, one tool call, usage and an artifact. */
export const DEFAULT_KERNEL_SCRIPT: KernelScript = DEMO_TURN_SCRIPT;

export function selectKernelScript(userText: string): KernelScript {
  const keyword = firstKeyword(userText);
  return KERNEL_SCRIPT_KEYWORDS.find((row) => row.keyword === keyword)?.script ?? DEFAULT_KERNEL_SCRIPT;
}

export const KERNEL_SCRIPT_BOOK: KernelScriptBook = { select: selectKernelScript };
