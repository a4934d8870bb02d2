import type { ExecutionContext } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { SystemClock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { BearerRequestAuthenticator } from './bearer-request-authenticator';
import { BearerTokenVerifier } from './bearer-token-verifier';
import { RequestAuthGuard } from './request-auth.guard';
import type { AuthenticationRequest, RequestAuthenticator } from './request-authenticator';

function contextWith(authorization?: string) {
  const request = {
    method: 'POST',
    originalUrl: '/agents/iac',
    headers: authorization === undefined ? {} : { authorization },
  };
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => void (headers[name] = value) };
  const context = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { context, headers };
}

const guardFor = (config: Partial<AppConfig>) =>
  new RequestAuthGuard(
    new BearerRequestAuthenticator(
      new BearerTokenVerifier({ jwt: { principalClaim: 'sub' }, ...config } as AppConfig, new SystemClock()),
    ),
  );

describe('RequestAuthGuard with the bearer authenticator', () => {
  const guard = guardFor({ authToken: 's3cret' });

  it.each([
    { name: 'exact scheme', header: 'Bearer s3cret', allowed: true },
    { name: 'scheme is case-insensitive', header: 'bEaReR s3cret', allowed: true },
    { name: 'wrong token', header: 'Bearer s3cret2', allowed: false },
    { name: 'missing header', header: undefined, allowed: false },
    { name: 'other scheme', header: 'Basic s3cret', allowed: false },
    { name: 'scheme only', header: 'Bearer', allowed: false },
    { name: 'empty token', header: 'Bearer ', allowed: false },
  ])('$name', async ({ header, allowed }) => {
    const { context, headers } = contextWith(header);
    if (allowed) await expect(guard.canActivate(context)).resolves.toBe(true);
    else {
      await expect(guard.canActivate(context)).rejects.toBeInstanceOf(AguiError);
      expect(headers['WWW-Authenticate']).toBe('Bearer');
    }
  });

  it('lets everything through when no token is configured', async () => {
    await expect(guardFor({}).canActivate(contextWith().context)).resolves.toBe(true);
  });

  it('names the OAuth protected-resource metadata in the challenge when configured', async () => {
    const url = 'https://bedrock-agentcore.eu-west-1.amazonaws.com/runtimes/arn/invocations/.well-known/x';
    const { context, headers } = contextWith('Bearer nope');
    await expect(
      guardFor({ authToken: 's3cret', jwt: { resourceMetadataUrl: url, principalClaim: 'sub' } }).canActivate(
        context,
      ),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(headers['WWW-Authenticate']).toBe(`Bearer resource_metadata="${url}"`);
  });
});

describe('RequestAuthGuard with a replaced authenticator', () => {
  const seen: AuthenticationRequest[] = [];
  const byHeader: RequestAuthenticator = {
    authenticate: (request) => {
      seen.push(request);
      return request.headers.authorization === 'Bearer ok' ? { isAllowed: true } : { isAllowed: false };
    },
  };
  const guard = new RequestAuthGuard(byHeader);

  it('asks the authenticator, with the request it is about and the bearer token already extracted', async () => {
    await expect(guard.canActivate(contextWith('Bearer ok').context)).resolves.toBe(true);
    expect(seen.at(-1)).toEqual(
      expect.objectContaining({ transport: 'http', method: 'POST', url: '/agents/iac', bearerToken: 'ok' }),
    );
  });

  it('refuses with UNAUTHORIZED and sets no challenge when the authenticator gives none', async () => {
    const { context, headers } = contextWith('Bearer nope');
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(headers).toEqual({});
  });
});
