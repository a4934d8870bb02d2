import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { conformsTo } from './dto/conforms-to';
import { ForwardedPropsDto } from './dto/iac-code-props.dto';
import type { IacCodeProps, IacCodeThinking } from './iac-code-props';

type Plain = Record<string, unknown>;

/**
 * `forwardedProps` must be exactly `{ iacCode }` with the original's strict schema (docs/behaviour/run-input.md#forwardedpropsiaccode); the
 * failure message is fixed and never echoes what was sent. Defaults of the original are applied.
 */
export function parseForwardedProps(forwardedProps: unknown): IacCodeProps {
  if (!conformsTo(ForwardedPropsDto, forwardedProps)) {
    throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps');
  }
  const iacCode = (forwardedProps as { iacCode: Plain }).iacCode;
  const thinking = iacCode.thinking as Plain | null | undefined;
  return {
    ...(iacCode as unknown as IacCodeProps),
    cleanupOnly: iacCode.cleanupOnly === true,
    ...(thinking ? { thinking: { ...thinking, enabled: thinking.enabled === true } as IacCodeThinking } : {}),
  };
}
