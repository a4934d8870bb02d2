import type { ConversationEntry, TokenCounts } from './conversation';
import { element } from './element';
import { PAGE_TEXT } from './page-text';

function usageLine(usage: readonly TokenCounts[]): string {
  return usage
    .map(
      (u) =>
        `${[u.provider, u.model].filter(Boolean).join('/') || 'usage'}: ${PAGE_TEXT.tokens(u.inputTokens, u.outputTokens, u.totalTokens)}`,
    )
    .join('; ');
}

/** Tool arguments arrive as JSON text; pretty-print when they parse, show them as sent when not. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function bubble(kind: string, label: string, ...body: (Node | string)[]): HTMLLIElement {
  return element(
    'li',
    { class: `entry entry-${kind}` },
    element('span', { class: 'entry-label' }, label),
    ...body,
  );
}

function renderEntry(entry: ConversationEntry): HTMLLIElement {
  switch (entry.kind) {
    case 'user':
      return bubble('user', PAGE_TEXT.you, element('p', { class: 'entry-text' }, entry.text));
    case 'answer':
      return bubble(
        'user',
        PAGE_TEXT.yourAnswer,
        element('p', { class: 'entry-text' }, entry.labels.join(', ')),
      );
    case 'assistant':
      return bubble('assistant', PAGE_TEXT.assistant, element('p', { class: 'entry-text' }, entry.text));
    case 'reasoning':
      return bubble('reasoning', PAGE_TEXT.reasoning, element('p', { class: 'entry-text' }, entry.text));
    case 'tool':
      return bubble(
        'tool',
        `${PAGE_TEXT.tool}: ${entry.name}`,
        element(
          'details',
          {},
          element('summary', {}, PAGE_TEXT.toolArguments),
          element('pre', {}, prettyJson(entry.args)),
        ),
        ...entry.progress.map((line) => element('p', { class: 'tool-progress' }, line)),
        entry.result === undefined
          ? element('p', { class: 'tool-pending' }, PAGE_TEXT.toolPending)
          : element(
              'div',
              { class: 'tool-result' },
              element('span', { class: 'entry-sublabel' }, PAGE_TEXT.toolResult),
              element('pre', {}, entry.result),
            ),
      );
    case 'step':
      return bubble(
        'step',
        PAGE_TEXT.step,
        `${entry.name} — ${entry.finished ? PAGE_TEXT.stepFinished : PAGE_TEXT.stepRunning}`,
      );
    case 'pipeline':
      return bubble('pipeline', PAGE_TEXT.pipeline, element('code', {}, entry.eventType), ' ', entry.detail);
    case 'artifact':
      return bubble('artifact', `${PAGE_TEXT.artifact}: ${entry.name}`, element('pre', {}, entry.text));
    case 'custom':
      return bubble(
        'custom',
        `${PAGE_TEXT.custom}: ${entry.name}`,
        element('pre', {}, JSON.stringify(entry.value, null, 2)),
      );
    case 'interrupt':
      return bubble('interrupt', PAGE_TEXT.question, element('p', { class: 'entry-text' }, entry.message));
    case 'usage':
      return bubble('usage', PAGE_TEXT.usage, usageLine(entry.usage));
    case 'error':
      return bubble(
        'error',
        PAGE_TEXT.error,
        element('strong', { class: 'error-code' }, entry.code),
        ' ',
        element('span', { class: 'error-message' }, entry.message),
      );
    case 'finished':
      return bubble('finished', '', PAGE_TEXT.outcome(entry.outcome));
  }
}

/**
 * Draws the conversation. Re-rendering on every event is cheap, but replacing every node would close the
 * `<details>` a reader opened and jump the scroll: entries whose content did not change keep their node.
 */
export class ConversationView {
  private readonly nodes = new Map<string, { signature: string; node: HTMLLIElement }>();

  constructor(private readonly list: HTMLOListElement) {}

  render(entries: readonly ConversationEntry[]): void {
    const atBottom = window.scrollY + window.innerHeight >= document.body.scrollHeight - 48;
    const keep = new Set<string>();
    let previous: Element | null = null;
    for (const entry of entries) {
      keep.add(entry.key);
      const signature = JSON.stringify(entry);
      const known = this.nodes.get(entry.key);
      let node = known?.node;
      if (!known || known.signature !== signature) {
        node = renderEntry(entry);
        const wasOpen = known?.node.querySelector('details')?.open;
        if (wasOpen) node.querySelector('details')?.setAttribute('open', '');
        if (known) known.node.replaceWith(node);
        this.nodes.set(entry.key, { signature, node });
      }
      if (node && (node.parentNode !== this.list || node.previousElementSibling !== previous)) {
        if (previous) previous.after(node);
        else this.list.prepend(node);
      }
      previous = node ?? previous;
    }
    for (const [key, { node }] of this.nodes) {
      if (!keep.has(key)) {
        node.remove();
        this.nodes.delete(key);
      }
    }
    if (atBottom) window.scrollTo({ top: document.body.scrollHeight });
  }

  clear(): void {
    this.nodes.clear();
    this.list.replaceChildren();
  }
}
