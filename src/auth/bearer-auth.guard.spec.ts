import type { ExecutionContext } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import type { AppConfig } from '../config/app-config';
import { BearerAuthGuard } from './bearer-auth.guard';

function contextWith(authorization?: string): ExecutionContext {
  const request = { headers: authorization === undefined ? {} : { authorization } };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

describe('BearerAuthGuard', () => {
  const guard = new BearerAuthGuard({ authToken: 's3cret' } as AppConfig);

  it.each([
    { name: 'exact scheme', header: 'Bearer s3cret', allowed: true },
    { name: 'scheme is case-insensitive', header: 'bEaReR s3cret', allowed: true },
    { name: 'wrong token', header: 'Bearer s3cret2', allowed: false },
    { name: 'missing header', header: undefined, allowed: false },
    { name: 'other scheme', header: 'Basic s3cret', allowed: false },
    { name: 'scheme only', header: 'Bearer', allowed: false },
    { name: 'empty token', header: 'Bearer ', allowed: false },
  ])('$name', ({ header, allowed }) => {
    if (allowed) expect(guard.canActivate(contextWith(header))).toBe(true);
    else expect(() => guard.canActivate(contextWith(header))).toThrow(AguiError);
  });

  it('lets everything through when no token is configured', () => {
    expect(new BearerAuthGuard({} as AppConfig).canActivate(contextWith())).toBe(true);
  });
});
