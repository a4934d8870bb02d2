import { selectedProtocol, tokenFromProtocols } from './websocket-protocol-token';

const encode = (token: string) => Buffer.from(token, 'utf8').toString('base64url');

describe('tokenFromProtocols', () => {
  it.each([
    {
      name: 'the browser pair',
      protocols: [`base64UrlBearerAuthorization.${encode('eyJ.a-b_c')}`, 'base64UrlBearerAuthorization'],
      token: 'eyJ.a-b_c',
    },
    {
      name: 'order does not matter',
      protocols: ['base64UrlBearerAuthorization', `base64UrlBearerAuthorization.${encode('tok')}`],
      token: 'tok',
    },
    { name: 'a token with padding', protocols: [`base64UrlBearerAuthorization.dG9rMQ==`], token: 'tok1' },
    { name: 'only the marker', protocols: ['base64UrlBearerAuthorization'], token: undefined },
    { name: 'not base64url', protocols: ['base64UrlBearerAuthorization.a+b/'], token: undefined },
    { name: 'an empty token', protocols: ['base64UrlBearerAuthorization.'], token: undefined },
    { name: 'other protocols', protocols: ['graphql-ws'], token: undefined },
  ])('$name', ({ protocols, token }) => expect(tokenFromProtocols(protocols)).toBe(token));
});

describe('selectedProtocol', () => {
  it.each([
    {
      protocols: ['base64UrlBearerAuthorization.eA', 'base64UrlBearerAuthorization'],
      selected: 'base64UrlBearerAuthorization',
    },
    { protocols: ['base64UrlBearerAuthorization.eA'], selected: false },
    { protocols: [], selected: false },
  ])('$protocols → $selected', ({ protocols, selected }) =>
    expect(selectedProtocol(new Set(protocols))).toBe(selected),
  );
});
