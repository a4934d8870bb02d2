/**
 * The `WWW-Authenticate` value of a 401 (RFC 7235). With an OAuth protected-resource metadata URL it carries
 * `resource_metadata`, which AgentCore clients use for discovery (docs/behaviour/agentcore.md, seed
 * "Respostas de autenticação OAuth"). A quote or backslash in the URL is escaped as RFC 7230 quoted-string.
 */
export function bearerChallenge(resourceMetadataUrl: string | undefined): string {
  if (!resourceMetadataUrl) return 'Bearer';
  return `Bearer resource_metadata="${resourceMetadataUrl.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
