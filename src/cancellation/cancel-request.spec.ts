import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_ID_LENGTH } from '../common/max-id-length';
import { parseCancelRequest } from './cancel-request';

const longId = 't'.repeat(MAX_ID_LENGTH + 1);

describe('parseCancelRequest', () => {
  it('accepts ids of exactly 1,024 characters', () => {
    const id = '😀'.repeat(MAX_ID_LENGTH);
    expect(parseCancelRequest(id, { threadId: id, rosInvocationId: 'inv-1' })).toEqual({
      executionId: id,
      threadId: id,
      rosInvocationId: 'inv-1',
    });
  });

  it.each([
    { name: 'not an object', executionId: 'e', body: [], key: 'cancelNotAnObject' },
    { name: 'no threadId', executionId: 'e', body: { rosInvocationId: 'i' }, key: 'cancelIdentityRequired' },
    {
      name: 'a threadId over the limit',
      executionId: 'e',
      body: { threadId: longId, rosInvocationId: 'i' },
      key: 'cancelIdentityTooLong',
    },
    {
      name: 'an execution id over the limit',
      executionId: longId,
      body: { threadId: 't', rosInvocationId: 'i' },
      key: 'cancelIdentityTooLong',
    },
  ])('refuses $name with $key', ({ executionId, body, key }) => {
    expect(() => parseCancelRequest(executionId, body)).toThrow(AguiError);
    expect(() => parseCancelRequest(executionId, body)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_INPUT, messageKey: key }),
    );
  });
});
