import { DEMO_FRAME_PAUSE_MS, pacedFrames } from '../demo-turn-script';
import { endOfTurnFrames, statusFrame, textDeltaFrame, thinkingFrame, toolFrame } from '../kernel-frames';
import type { KernelScript, KernelStep, KernelTurnInput } from '../kernel-script';

/**
 * Scripts that break a turn the ways a real kernel can, so the gateway's error paths are tested
 * against the wire (docs/architecture.md#decisions; docs/behaviour/events.md#run-lifecycle steps 5–6).
 */

/**
 * Text, reasoning and a tool call are all open (started, no input_complete) when the connection dies. The
 * drop waits at a hold, so a test can release it once the gateway has shown all three (`KernelHolds`).
 */
export const DROP_SCRIPT: KernelScript = {
  name: 'drop',
  steps: (input: KernelTurnInput): readonly KernelStep[] => [
    ...pacedFrames(
      [
        textDeltaFrame(input, 'Planning the deployment. '),
        thinkingFrame(input, 'First I need the current stack state.'),
        toolFrame(input, { status: 'started', toolUseId: `${input.taskId}-tool-1`, name: 'ros_get_stack' }),
      ],
      DEMO_FRAME_PAUSE_MS,
    ),
    { kind: 'hold' },
    { kind: 'fault', fault: { kind: 'drop' } },
  ],
};

/** A JSON-RPC error frame after the stream started (HTTP 200), as the kernel's SDK sends on a late failure. */
export const RPC_ERROR_SCRIPT: KernelScript = {
  name: 'rpc-error',
  steps: (input: KernelTurnInput): readonly KernelStep[] => [
    ...pacedFrames([textDeltaFrame(input, 'Starting. ')], DEMO_FRAME_PAUSE_MS),
    { kind: 'fault', fault: { kind: 'rpc-error', code: -32603, message: 'Internal error' } },
  ],
};

/** HTTP 500 before any stream byte: the transport answers before the executor runs. */
export const HTTP_500_SCRIPT: KernelScript = {
  name: 'http-500',
  preStreamHttpStatus: 500,
  steps: () => [],
};

/** The task ends in TASK_STATE_FAILED with an agent message saying why. */
export const FAIL_SCRIPT: KernelScript = {
  name: 'fail',
  steps: (input: KernelTurnInput): readonly KernelStep[] =>
    pacedFrames(
      [
        textDeltaFrame(input, 'Checking the template. '),
        statusFrame(input, 'TASK_STATE_FAILED', {
          text: 'The scripted task failed.',
          messageId: `${input.taskId}-error`,
        }),
      ],
      DEMO_FRAME_PAUSE_MS,
    ),
};

export const SLOW_DELTA_COUNT = 33;
export const SLOW_DELTA_PAUSE_MS = 300;

/** About ten seconds of deltas, 300 ms apart, so a client can disconnect or cancel mid-run. */
export const SLOW_SCRIPT: KernelScript = {
  name: 'slow',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const deltas = Array.from(
      { length: SLOW_DELTA_COUNT },
      (_, i) => `Step ${i + 1} of ${SLOW_DELTA_COUNT}. `,
    );
    return [
      ...pacedFrames(
        deltas.map((text) => textDeltaFrame(input, text)),
        SLOW_DELTA_PAUSE_MS,
      ),
      ...endOfTurnFrames(input, deltas.join('')).map((frame): KernelStep => ({ kind: 'frame', frame })),
    ];
  },
};

/** After WORKING nothing more, until CancelTask: only heartbeats show on the wire. */
export const SILENT_SCRIPT: KernelScript = {
  name: 'silent',
  steps: () => [{ kind: 'park', answersCancel: true }],
};

/** Like `silent`, but CancelTask never answers (the gateway must bound its cancel). */
export const HANG_CANCEL_SCRIPT: KernelScript = {
  name: 'hang-cancel',
  steps: () => [{ kind: 'park', answersCancel: false }],
};

export const FLOOD_DELTA_COUNT = 2000;
export const FLOOD_DELTA_BYTES = 8 * 1024;

/**
 * 2,000 text deltas of 8 KiB as fast as the kernel can write them, then the end of the turn: about 16 MiB
 * in a burst, more than the socket buffers between a client and the gateway hold, to show back-pressure.
 */
export const FLOOD_SCRIPT: KernelScript = {
  name: 'flood',
  steps: (input: KernelTurnInput): readonly KernelStep[] => {
    const deltas = Array.from({ length: FLOOD_DELTA_COUNT }, (_, index) =>
      textDeltaFrame(input, `${String(index).padStart(5, '0')} `.padEnd(FLOOD_DELTA_BYTES, 'x')),
    );
    // Ends like a turn without the kernel's full-answer repeat, which at 16 MiB would exceed SSE event limits.
    return [...deltas, statusFrame(input, 'TASK_STATE_INPUT_REQUIRED')].map((frame) => ({
      kind: 'frame' as const,
      frame,
    }));
  },
};
