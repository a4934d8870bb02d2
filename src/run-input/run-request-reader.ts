import { createHash } from 'node:crypto';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { BodyBudget } from '../common/body-budget';
import { setRequestLanguage } from '../common/request-language';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { Language } from '../i18n/message-catalogue';
import { negotiateLanguage, requestLanguage } from '../i18n/negotiate-language';
import { agentCoreSessionIdOf } from '../logging/request-log-fields';
import { parseRunAgentInput, preferredLanguageOf } from './parse-run-input';
import { assertJsonMediaType, readJsonBody, type JsonBody } from './read-json-body';
import type { Face, RunRequest } from './run-request';
import { isWireObject } from '../wire/wire-value';
import { canonicalDigestOfValue } from '../wire/canonical-digest';
import { parsePythonJson } from '../wire/parse-python-json';
import { isPythonObject } from '../wire/python-json-value';

/** What a transport knows about a request besides its body. */
export interface RunRequestOrigin {
  readonly face: Face;
  readonly language: Language;
  readonly agentCoreSessionId?: string;
  /** The authenticated caller's principal, when the authenticator named one. */
  readonly principal?: string;
}

/**
 * Turns a request into a validated RunRequest in the order of docs/behaviour/http.md#request-checks: language, media type,
 * capped body, JSON, envelope, forwarded properties. The HTTP route runs it after the guard, so nothing
 * here is reached without a valid token; the WebSocket transport parses its text frame itself and shares
 * the body-to-RunRequest half (`languageOf`, `toRunRequest`), so both faces validate identically.
 */
@Injectable()
export class RunRequestReader {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly budget: BodyBudget,
  ) {}

  /** `principal`: what the guard's authenticator named for this request (getRequestPrincipal). */
  async read(request: Request, face: Face, principal?: string): Promise<RunRequest> {
    const acceptLanguage = request.headers['accept-language'];
    setRequestLanguage(request, negotiateLanguage(acceptLanguage, this.config.processLanguage));
    assertJsonMediaType(request);
    const limits = {
      maxBytes: this.config.maxRequestBytes,
      idleMs: this.config.http.bodyIdleMs,
      tooLargeKey: 'requestTooLarge',
      invalidJsonKey: 'invalidJson',
      budget: this.budget,
    } as const;
    return readJsonBody(request, limits, (body) => {
      const language = this.languageOf(body.value, acceptLanguage);
      setRequestLanguage(request, language);
      const agentCoreSessionId = agentCoreSessionIdOf(request.headers);
      return this.toRunRequest(body, {
        face,
        language,
        ...(agentCoreSessionId ? { agentCoreSessionId } : {}),
        ...(principal !== undefined ? { principal } : {}),
      });
    });
  }

  /** The payload's language applies even to the envelope's own validation errors (docs/behaviour/http.md#request-checks step 7). */
  languageOf(body: unknown, acceptLanguage: string | undefined): Language {
    return requestLanguage(preferredLanguageOf(body), acceptLanguage, this.config.processLanguage);
  }

  /** Steps 6, 8 and 9 of docs/behaviour/http.md#request-checks on a parsed JSON body; throws AguiError(INVALID_INPUT). */
  toRunRequest(body: JsonBody, origin: RunRequestOrigin): RunRequest {
    const generic = this.genericPropsFor(body.value);
    const input = parseRunAgentInput(generic ? generic.body : body.value, {
      toolsRefusalKey: this.config.genericClients ? 'toolsUnsupported' : 'invalidForwardedProps',
    });
    // Parsed once more as Python parses it (exact floats) for the digests, still under the body's budget charge.
    const python = parsePythonJson(body.raw);
    const pythonResume = input.resume !== undefined && isPythonObject(python) ? python.resume : undefined;
    return {
      input,
      props: input.forwardedProps.iacCode,
      digest: canonicalDigestOfValue(python),
      ...(pythonResume !== undefined ? { pythonResume } : {}),
      language: origin.language,
      face: origin.face,
      ...(origin.agentCoreSessionId !== undefined ? { agentCoreSessionId: origin.agentCoreSessionId } : {}),
      ...(origin.principal !== undefined ? { principal: origin.principal } : {}),
      ...(generic?.isFilled ? { hasGenericProps: true } : {}),
    };
  }

  /**
   * Generic AG-UI clients (HttpAgent, CopilotKit) send `forwardedProps: {}`. With
   * IAC_CODE_AGUI_GENERIC_CLIENTS the other forwardedProps keys are ignored and a missing `iacCode` is
   * filled: the run id as `rosInvocationId` (admission swaps in the thread's own for a resume) and a
   * per-thread workspace under IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT. An `iacCode` that is sent is still
   * validated strictly. Undefined when the mode is off or the body is not an object (rejected later).
   */
  private genericPropsFor(value: unknown): { body: Record<string, unknown>; isFilled: boolean } | undefined {
    if (!this.config.genericClients || !isWireObject(value)) return undefined;
    const forwarded = isWireObject(value.forwardedProps) ? value.forwardedProps : {};
    if (forwarded.iacCode !== undefined)
      return { body: { ...value, forwardedProps: { iacCode: forwarded.iacCode } }, isFilled: false };
    const threadId = typeof value.threadId === 'string' ? value.threadId : '';
    const iacCode = {
      schemaVersion: 1,
      rosInvocationId: genericInvocationIdOf(value.runId),
      cwd: genericWorkspaceOf(threadId, this.config.genericWorkspaceRoot),
    };
    return { body: { ...value, forwardedProps: { iacCode } }, isFilled: true };
  }
}

/**
 * A thread's workspace for generic clients: a directory under the root named by a SHA-256 prefix of the
 * thread id, so any id (slashes, `..`, unicode) maps to one safe name and threads never share one.
 */
export function genericWorkspaceOf(threadId: string, root: string): string {
  return path.join(root, createHash('sha256').update(threadId, 'utf8').digest('hex').slice(0, 32));
}

/** The run id as the invocation id; one over the 256-code-point limit of `rosInvocationId` is hashed. */
function genericInvocationIdOf(runId: unknown): unknown {
  if (typeof runId !== 'string' || [...runId].length <= 256) return runId;
  return createHash('sha256').update(runId, 'utf8').digest('hex');
}
