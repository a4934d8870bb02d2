import { ErrorCode } from '../common/error-code';
import type { Language } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';

/**
 * Refusals owed that name their input; past this many (a client flooding a long run), the rest are counted
 * per language and name none, so what a socket owes stays bounded.
 */
const MAX_NAMED_REFUSALS = 64;

/** How a refusal goes out: one RUN_ERROR message. */
export type SendRefusal = (
  code: ErrorCode,
  key: MessageKey,
  language: Language,
  values?: Readonly<Record<string, string>>,
) => void;

/**
 * The refusals a socket owes while a run streams, sent between runs so that no frame of a refusal is
 * interleaved into a run (docs/behaviour/agentcore.md#websocket): THREAD_BUSY for inputs beyond the queue,
 * oldest first, each naming its input's runId (the first MAX_NAMED_REFUSALS), and SERVER_BUSY for inputs
 * the body budget could not hold. Bounded whatever a client sends.
 */
export class WsRefusalsDue {
  private readonly named: { runId: string; language: Language }[] = [];
  /** Beyond MAX_NAMED_REFUSALS, per language. */
  private readonly unnamed = new Map<Language, number>();
  private readonly busy = new Map<Language, number>();

  socketBusy(runId: string, language: Language): void {
    if (this.named.length < MAX_NAMED_REFUSALS) this.named.push({ runId, language });
    else this.unnamed.set(language, (this.unnamed.get(language) ?? 0) + 1);
  }

  serverBusy(language: Language): void {
    this.busy.set(language, (this.busy.get(language) ?? 0) + 1);
  }

  /** Sends every refusal owed, in the order above, and owes nothing after. */
  sendAll(send: SendRefusal): void {
    for (const { runId, language } of this.named.splice(0))
      send(ErrorCode.THREAD_BUSY, 'socketBusy', language, { runId });
    for (const [language, count] of this.unnamed)
      for (let sent = 0; sent < count; sent++)
        send(ErrorCode.THREAD_BUSY, 'socketBusy', language, { runId: 'null' });
    for (const [language, count] of this.busy)
      for (let sent = 0; sent < count; sent++) send(ErrorCode.SERVER_BUSY, 'serverBusy', language);
    this.clear();
  }

  clear(): void {
    this.named.length = 0;
    this.unnamed.clear();
    this.busy.clear();
  }
}
