import {
  artifactFrame,
  endOfTurnFrames,
  textDeltaFrame,
  thinkingFrame,
  toolFrame,
  usageFrame,
  type KernelUsage,
} from './kernel-frames';
import type { KernelFrame, KernelScript, KernelStep, KernelTurnInput } from './kernel-script';

/** Spacing between demo frames: visible streaming in a browser, still well under a second per turn. */
export const DEMO_FRAME_PAUSE_MS = 25;

export const DEMO_TOOL_NAME = 'ros_validate_template';

const DEMO_TEMPLATE = [
  "ROSTemplateFormatVersion: '2015-09-01'",
  'Resources:',
  '  Vpc:',
  '    Type: ALIYUN::ECS::VPC',
  '    Properties:',
  '      CidrBlock: 192.168.0.0/16',
  '  VSwitch:',
  '    Type: ALIYUN::ECS::VSwitch',
  '    Properties:',
  '      VpcId: { Ref: Vpc }',
  '      CidrBlock: 192.168.1.0/24',
  '      ZoneId: cn-hangzhou-h',
  '',
].join('\n');

/** The text deltas of the demo answer, before and after the tool call. */
export function demoAnswerDeltas(userText: string): { beforeTool: string[]; afterTool: string[] } {
  const topic = userText.trim() === '' ? 'your infrastructure' : `“${userText.trim()}”`;
  return {
    beforeTool: [
      `You asked about ${topic}. `,
      'As infrastructure as code, I would start from a small ROS template ',
      'with a VPC and a vSwitch, and validate it before anything is deployed.',
    ],
    afterTool: [
      ' The template is valid: 2 resources, no errors.',
      ' I attached it as template.yaml; review it, then create a stack from it when you are ready.',
    ],
  };
}

/** Deterministic token counts (about four characters a token), so usage is assertable. */
export function demoUsage(userText: string, answer: string): KernelUsage {
  const inputTokens = 180 + Math.ceil(userText.length / 4);
  const outputTokens = Math.ceil(answer.length / 4);
  return {
    provider: 'demo',
    model: 'iac-demo-1',
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cachedInputTokens: 0,
  };
}

/** Interleaves a pause before every frame, the rhythm of a model streaming tokens. */
export function pacedFrames(frames: readonly KernelFrame[], pauseMs: number): KernelStep[] {
  return frames.flatMap((frame): KernelStep[] => [
    { kind: 'pause', ms: pauseMs },
    { kind: 'frame', frame },
  ]);
}

/**
 * The default demo turn: reasoning, an answer that echoes the user's text, one `ros_validate_template`
 * tool call (started → input_complete → progress → completed), usage, a template artifact, and the
 * kernel's end of turn.
 */
export const DEMO_TURN_SCRIPT: KernelScript = {
  name: 'demo',
  steps(input: KernelTurnInput): readonly KernelStep[] {
    const { beforeTool, afterTool } = demoAnswerDeltas(input.userText);
    const answer = [...beforeTool, ...afterTool].join('');
    const tool = { toolUseId: `${input.taskId}-tool-1`, name: DEMO_TOOL_NAME };
    const frames: KernelFrame[] = [
      thinkingFrame(input, 'The user wants help with infrastructure as code. '),
      thinkingFrame(input, 'A minimal ROS template, validated before deploying, answers it best.'),
      ...beforeTool.map((text) => textDeltaFrame(input, text)),
      toolFrame(input, { status: 'started', ...tool }),
      toolFrame(input, {
        status: 'input_complete',
        ...tool,
        toolInput: { templateBody: DEMO_TEMPLATE, regionId: 'cn-hangzhou' },
      }),
      toolFrame(input, { status: 'progress', ...tool, message: 'Validating 2 resources' }),
      toolFrame(input, {
        status: 'completed',
        ...tool,
        result: 'Template is valid: 2 resources (ALIYUN::ECS::VPC, ALIYUN::ECS::VSwitch).',
      }),
      ...afterTool.map((text) => textDeltaFrame(input, text)),
      usageFrame(input, demoUsage(input.userText, answer)),
      artifactFrame(input, {
        artifactId: `${input.taskId}-template`,
        name: 'template.yaml',
        text: DEMO_TEMPLATE,
        mediaType: 'text/yaml',
      }),
      ...endOfTurnFrames(input, answer),
    ];
    return pacedFrames(frames, DEMO_FRAME_PAUSE_MS);
  },
};
