import { createHash } from 'node:crypto';

/**
 * Cumulative-replay stripping across resumes (docs/behaviour/events.md#text-and-reasoning). A resumed kernel can replay, in one status
 * message, all the text it produced before an interrupt plus the new suffix. The thread persists only
 * SHA-256 digests (hex, over UTF-8) of text already delivered — `textSnapshotDigests`, never the text — and
 * the first time a message id is seen in a run only the part past the longest delivered prefix goes out.
 *
 * A digest is taken ("finalised") over the whole text a message accumulated in this run: at tool start, when
 * the message closes, and before an interrupt is committed (`finaliseAll`). One per run (`new`).
 */
export class TextSnapshots {
  private readonly digests: Set<string>;
  /** Text accumulated per message id since its last finalisation, joined only when finalised. */
  private readonly partsByMessage = new Map<string, string[]>();
  /** Message ids whose replay prefix was already checked in this run: only the first sight is a replay. */
  private readonly checked = new Set<string>();

  constructor(digests: readonly string[] = []) {
    this.digests = new Set(digests);
  }

  /** The digest set, sorted: what the run path persists as `textSnapshotDigests`. */
  get sortedDigests(): string[] {
    return [...this.digests].sort();
  }

  /** True exactly once per message id in the run: the sighting on which a replay can be stripped. */
  claimFirstSight(messageId: string): boolean {
    if (this.checked.has(messageId)) return false;
    this.checked.add(messageId);
    return true;
  }

  /**
   * The length (UTF-16 units, for `slice`) of the longest prefix of `text` whose digest is already known, 0
   * when none. Prefixes end on code points, as the original's per-character loop does; one running hash is
   * copied at each boundary instead of rehashing every prefix.
   */
  replayedPrefixLength(text: string): number {
    if (text.length === 0 || this.digests.size === 0) return 0;
    const hash = createHash('sha256');
    let longest = 0;
    let offset = 0;
    for (const character of text) {
      hash.update(character, 'utf8');
      offset += character.length;
      if (this.digests.has(hash.copy().digest('hex'))) longest = offset;
    }
    return longest;
  }

  /** Appends delivered text to the message's snapshot. */
  record(messageId: string, text: string): void {
    const parts = this.partsByMessage.get(messageId);
    if (parts) parts.push(text);
    else this.partsByMessage.set(messageId, [text]);
  }

  /** Restarts the message's snapshot from the full replayed text (only its suffix was delivered now). */
  replace(messageId: string, text: string): void {
    this.partsByMessage.set(messageId, [text]);
  }

  /** Digests the message's accumulated text and forgets it; nothing when it has none. */
  finalise(messageId: string): void {
    const parts = this.partsByMessage.get(messageId);
    if (parts === undefined) return;
    this.partsByMessage.delete(messageId);
    const text = parts.join('');
    if (text.length > 0) this.digests.add(textDigest(text));
  }

  finaliseAll(): void {
    for (const messageId of [...this.partsByMessage.keys()]) this.finalise(messageId);
  }
}

/** SHA-256 hex of the UTF-8 text: the form of every `textSnapshotDigests` entry. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
