import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { PrincipalUserIdRule } from '../config/app-config';
import type { IacCodeProps } from '../run-input/parse-run-input';

/**
 * `forwardedProps.iacCode.userId` under IAC_CODE_AGUI_PRINCIPAL_USER_ID (docs/behaviour/state.md#caller-binding):
 * the props the run is admitted and sent with. An anonymous caller's props are never changed; `keep`
 * changes nothing either (the principal binds the thread by itself).
 */
export function propsForCaller(
  props: IacCodeProps,
  principal: string | undefined,
  rule: PrincipalUserIdRule,
): IacCodeProps {
  if (principal === undefined || rule === 'keep') return props;
  const written = props.userId ?? null;
  if (rule === 'match' && written !== null && written !== principal)
    throw new AguiError(ErrorCode.INVALID_INPUT, 'userIdNotPrincipal');
  return written === principal ? props : { ...props, userId: principal };
}
