import { element } from './element';
import type { ThreadRecord, WireEvent } from './thread-record';

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** HH:MM:SS.mmm in the browser's time zone, from the event's own millisecond timestamp when it has one. */
function clockTime(timestamp: number): string {
  const at = new Date(timestamp);
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}

/** A short hint next to the type, so a reader can scan the list without opening every entry. */
function hint(event: WireEvent): string {
  if (event.type === 'CUSTOM' && typeof event.name === 'string') return event.name;
  if (event.type === 'RUN_ERROR') return String(event.code ?? '');
  if (event.type.startsWith('STEP_')) return String(event.stepName ?? '');
  if (event.type === 'TOOL_CALL_START') return String(event.toolCallName ?? '');
  if (event.type === 'RUN_FINISHED') {
    const outcome = event.outcome as { type?: unknown } | undefined;
    return typeof outcome?.type === 'string' ? outcome.type : '';
  }
  return '';
}

/**
 * The event timeline: one collapsible entry per event (type, time, pretty JSON), appended as they
 * arrive. `<details>` is keyboard-operable without script; the JSON is only built into the DOM once.
 */
export class TimelineView {
  /** Whether the list sticks to its newest entry; the reader's own scrolling decides (scroll events). */
  private following = true;

  constructor(private readonly list: HTMLOListElement) {
    list.addEventListener('scroll', () => {
      this.following = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    });
  }

  show(thread: ThreadRecord | undefined, now: number): void {
    this.list.replaceChildren();
    for (const turn of thread?.turns ?? []) {
      this.separator(turn.runId);
      for (const event of turn.events) this.append(event, now);
    }
  }

  separator(runId: string): void {
    this.follow(element('li', { class: 'timeline-run' }, `run ${runId}`));
  }

  append(event: WireEvent, now: number): void {
    const summary = element(
      'summary',
      {},
      element('span', { class: `event-type event-${event.type.toLowerCase()}` }, event.type),
      ' ',
      element('span', { class: 'event-hint' }, hint(event)),
      ' ',
      element('time', { class: 'event-time' }, clockTime(event.timestamp ?? now)),
    );
    const json = element('pre', { class: 'event-json' }, JSON.stringify(event, null, 2));
    const item = element(
      'li',
      { class: 'timeline-event', 'data-type': event.type },
      element('details', {}, summary, json),
    );
    this.follow(item);
  }

  /** Appends and keeps the newest event in view, unless the reader scrolled up to look at an older one. */
  private follow(item: HTMLLIElement): void {
    this.list.append(item);
    if (this.following) this.list.scrollTop = this.list.scrollHeight;
  }
}
