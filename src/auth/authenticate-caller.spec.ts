import { Logger } from '@nestjs/common';
import { authenticateCaller } from './authenticate-caller';
import type { AuthenticationDecision, AuthenticationRequest } from './request-authenticator';

const REQUEST: AuthenticationRequest = { transport: 'http', method: 'POST', url: '/', headers: {} };
const answering = (decision: unknown) =>
  authenticateCaller({ authenticate: () => decision as AuthenticationDecision }, REQUEST, new Logger('test'));

describe('authenticateCaller', () => {
  it('passes a principal through, and no principal as none', async () => {
    await expect(answering({ isAllowed: true, principal: 'alice' })).resolves.toEqual({
      isAllowed: true,
      principal: 'alice',
    });
    await expect(answering({ isAllowed: true })).resolves.toEqual({ isAllowed: true });
  });

  it.each([
    { name: 'empty', principal: '' },
    { name: 'not a string', principal: 42 },
    { name: 'over 1024 characters', principal: 'a'.repeat(1025) },
  ])('refuses an allow decision whose principal is $name (fail closed)', async ({ principal }) => {
    await expect(answering({ isAllowed: true, principal })).resolves.toEqual({ isAllowed: false });
  });

  it("keeps a refusal's challenge and short message, and drops an unusable message", async () => {
    await expect(
      answering({ isAllowed: false, challenge: 'Ingress', message: 'Sign in through the portal.' }),
    ).resolves.toEqual({ isAllowed: false, challenge: 'Ingress', message: 'Sign in through the portal.' });
    await expect(answering({ isAllowed: false, message: 'two\nlines' })).resolves.toEqual({
      isAllowed: false,
    });
    await expect(answering({ isAllowed: false, message: 'x'.repeat(513) })).resolves.toEqual({
      isAllowed: false,
    });
  });
});
