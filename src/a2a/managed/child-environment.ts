/**
 * The environment of the managed `iac-code a2a` child (docs/behaviour/a2a.md#managed-child, T-PROC test 1): everything the
 * gateway inherited, the kernel's HTTP token, and the gateway's allowed workspace roots copied to the
 * kernel's own variable unless that one is already set. Pure.
 */
export function buildChildEnvironment(
  inherited: Readonly<Record<string, string>>,
  token: string,
): Record<string, string> {
  const environment: Record<string, string> = { ...inherited, IACCODE_A2A_HTTP_TOKEN: token };
  const roots = inherited.IAC_CODE_AGUI_ALLOWED_CWDS;
  if (inherited.IACCODE_A2A_ALLOWED_CWDS === undefined && roots !== undefined) {
    environment.IACCODE_A2A_ALLOWED_CWDS = roots;
  }
  return environment;
}

/** docs/behaviour/a2a.md#managed-child: `iac-code a2a --host 127.0.0.1 --port <p> --thinking-exposure all`. */
export function buildChildArguments(port: number): string[] {
  return ['a2a', '--host', '127.0.0.1', '--port', String(port), '--thinking-exposure', 'all'];
}
