import { TaskNotFoundError, TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { isTaskGone } from './upstream-error';

const wrapped = (cause: unknown) => new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable', { cause });

describe('isTaskGone: the kernel says the task does not exist, as opposed to a failure that may pass', () => {
  it.each([
    { name: 'TaskNotFoundError', error: new TaskNotFoundError('Task not found: t'), expected: true },
    {
      name: 'TaskNotFoundError wrapped by the gateway',
      error: wrapped(new TaskNotFoundError('t')),
      expected: true,
    },
    { name: 'a task that cannot be cancelled', error: new TaskNotCancelableError('t'), expected: false },
    { name: 'a timeout', error: new DOMException('timed out', 'TimeoutError'), expected: false },
    { name: 'a wrapped reset', error: wrapped(new TypeError('fetch failed')), expected: false },
    { name: 'not an error', error: 'Task not found', expected: false },
  ])('$name → $expected', ({ error, expected }) => expect(isTaskGone(error)).toBe(expected));
});
