import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey } from 'jose';
import { expectConformantEvents } from '../support/agui-conformance';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

const ISSUER = 'https://issuer.agui.test/';
const AUDIENCE = 'agui-gateway';
const SHARED_SECRET = Buffer.alloc(32, 7);

/** JWT mode: tokens signed by a local JWKS, served by a tiny HTTP server. */
describe('JWT auth mode', () => {
  let jwks: Server;
  let jwksUrl: string;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;

  const sign = (
    key: CryptoKey,
    claims: { audience?: string; issuer?: string; expiresAt?: number | string } = {},
  ) =>
    new SignJWT({ scope: 'agui' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(claims.issuer ?? ISSUER)
      .setAudience(claims.audience ?? AUDIENCE)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime(claims.expiresAt ?? '5m')
      .sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    // A symmetric key a key set should never publish: whoever reads the JWKS could sign with it.
    const sharedJwk = {
      kty: 'oct',
      k: SHARED_SECRET.toString('base64url'),
      kid: 'shared',
      alg: 'HS256',
      use: 'sig',
    };
    jwks = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [publicJwk, sharedJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    jwksUrl = `http://127.0.0.1:${port}/.well-known/jwks.json`;
  });
  // Declared after the JWKS server's beforeAll, so the gateway starts once its URL is known.
  const gateway = useGateway({
    upstream: true,
    env: () => ({
      IAC_CODE_AGUI_JWT_ISSUER: ISSUER,
      IAC_CODE_AGUI_JWT_AUDIENCE: AUDIENCE,
      IAC_CODE_AGUI_JWT_JWKS_URL: jwksUrl,
    }),
  });
  afterAll(async () => {
    await new Promise((resolve) => jwks?.close(resolve));
  });

  it('accepts a token signed by the JWKS, on /invocations and on the WebSocket', async () => {
    const token = await sign(signingKey);
    const response = await postRun(
      `${gateway.url}invocations`,
      runInput({ threadId: 'jwt-ok', runId: 'run-1' }),
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(response.status).toBe(200);
    await expectConformantEvents(response.events);
    expect(response.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });

    const client = await WsRunClient.open(gateway.url, {
      protocols: [
        `base64UrlBearerAuthorization.${Buffer.from(token).toString('base64url')}`,
        'base64UrlBearerAuthorization',
      ],
    });
    try {
      client.send(runInput({ threadId: 'jwt-ws', runId: 'run-1' }));
      expect((await client.nextRun()).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    } finally {
      client.socket.terminate();
    }
  });

  it.each([
    {
      name: 'an expired token',
      token: () => sign(signingKey, { expiresAt: Math.floor(Date.now() / 1000) - 60 }),
    },
    { name: 'a wrong audience', token: () => sign(signingKey, { audience: 'someone-else' }) },
    { name: 'a wrong issuer', token: () => sign(signingKey, { issuer: 'https://evil.test/' }) },
    { name: 'a key not in the JWKS', token: () => sign(strangerKey) },
    {
      name: 'an unsigned token (alg none)',
      token: async () =>
        new UnsecuredJWT({}).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').encode(),
    },
    {
      name: 'an HMAC token (HS256) signed with a symmetric key the JWKS publishes',
      token: () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: 'shared' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject('user-1')
          .setExpirationTime('5m')
          .sign(new Uint8Array(SHARED_SECRET)),
    },
    { name: 'not a JWT', token: async () => 'opaque-static-token' },
  ])('refuses $name with 401 UNAUTHORIZED', async ({ token }) => {
    const response = await postRun(
      `${gateway.url}invocations`,
      runInput({ threadId: 'jwt-no', runId: 'run-1' }),
      {
        headers: { authorization: `Bearer ${await token()}` },
      },
    );
    expect(response.status).toBe(401);
    expect(response.events).toEqual([
      {
        type: 'RUN_ERROR',
        code: 'UNAUTHORIZED',
        message: 'A valid bearer token is required.',
        timestamp: expect.any(Number),
      },
    ]);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});
