import { AguiError } from '../common/agui-error';
import type { IacCodeProps } from '../run-input/parse-run-input';
import { propsForCaller } from './caller-user-id';

const props = (userId?: string | null): IacCodeProps =>
  ({
    schemaVersion: 1,
    rosInvocationId: 'inv-1',
    cwd: '/ws',
    ...(userId !== undefined ? { userId } : {}),
  }) as IacCodeProps;

describe('propsForCaller (IAC_CODE_AGUI_PRINCIPAL_USER_ID)', () => {
  it.each([
    { rule: 'keep', written: 'bob', principal: 'alice', userId: 'bob' },
    { rule: 'keep', written: undefined, principal: 'alice', userId: undefined },
    { rule: 'fill', written: 'bob', principal: 'alice', userId: 'alice' },
    { rule: 'fill', written: null, principal: 'alice', userId: 'alice' },
    { rule: 'match', written: undefined, principal: 'alice', userId: 'alice' },
    { rule: 'match', written: 'alice', principal: 'alice', userId: 'alice' },
    { rule: 'fill', written: 'bob', principal: undefined, userId: 'bob' },
    { rule: 'match', written: 'bob', principal: undefined, userId: 'bob' },
  ] as const)(
    '$rule: userId $written from principal $principal → $userId',
    ({ rule, written, principal, userId }) => {
      expect(propsForCaller(props(written), principal, rule).userId).toBe(userId);
    },
  );

  it('match: refuses a userId that is not the principal with INVALID_INPUT', () => {
    expect(() => propsForCaller(props('bob'), 'alice', 'match')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', messageKey: 'userIdNotPrincipal' }) as AguiError,
    );
  });
});
