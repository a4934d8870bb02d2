import { element } from './element';
import { PAGE_TEXT } from './page-text';
import { describeResponseSchema, type ResponseChoice } from './response-form';
import type { ResumeAnswer } from './thread-record';

type Interrupt = Readonly<Record<string, unknown>>;

let formCount = 0;

/**
 * One form per pending interrupt, generated from its `responseSchema`. AG-UI forbids a partial resume
 * (docs/behaviour/run-input.md#envelope rule 3, and HttpAgent refuses to send one): answers are collected, and
 * the resume is sent once every interrupt has one — at the first click when there is a single question.
 */
export function renderInterruptForms(
  container: HTMLElement,
  interrupts: readonly Interrupt[],
  onComplete: (answers: ResumeAnswer[]) => void,
): void {
  container.replaceChildren();
  const answers = new Map<string, ResumeAnswer>();
  const answer = (fieldset: HTMLFieldSetElement, interruptId: string, choice: ResponseChoice) => {
    answers.set(interruptId, { interruptId, label: choice.label, payload: choice.payload });
    fieldset.disabled = true;
    fieldset.append(element('p', { class: 'answered', role: 'status' }, PAGE_TEXT.answered(choice.label)));
    if (answers.size === interrupts.length)
      onComplete(interrupts.map((i) => answers.get(String(i.id)) as ResumeAnswer));
    else fieldset.append(element('p', { class: 'hint' }, PAGE_TEXT.waitingForOthers));
  };
  for (const interrupt of interrupts) {
    const interruptId = String(interrupt.id);
    formCount += 1;
    const fieldset = element(
      'fieldset',
      { class: 'interrupt-form', 'data-interrupt-id': interruptId },
      element('legend', {}, questionText(interrupt) ?? interruptId),
    );
    const form = describeResponseSchema(interrupt.responseSchema, interrupt.metadata);
    const choose = (choice: ResponseChoice) => answer(fieldset, interruptId, choice);
    if (form.kind === 'buttons') fieldset.append(buttonRow(form.choices, choose));
    else if (form.kind === 'choices')
      fieldset.append(choiceList(`interrupt-${formCount}`, form.choices, form.freeTextField, choose));
    else fieldset.append(jsonAnswer(`interrupt-${formCount}`, choose));
    container.append(fieldset);
  }
}

/** `metadata.prompt` is the question alone; `message` repeats the options as text, which the form shows anyway. */
function questionText(interrupt: Interrupt): string | undefined {
  const metadata = interrupt.metadata as { prompt?: unknown } | undefined;
  if (typeof metadata?.prompt === 'string' && metadata.prompt !== '') return metadata.prompt;
  return typeof interrupt.message === 'string' ? interrupt.message : undefined;
}

function buttonRow(
  choices: readonly ResponseChoice[],
  choose: (choice: ResponseChoice) => void,
): HTMLElement {
  const row = element('div', { class: 'answer-buttons' });
  for (const choice of choices) {
    const button = element('button', { type: 'button' }, choice.label);
    button.addEventListener('click', () => choose(choice));
    row.append(button);
  }
  return row;
}

/** Radio buttons (arrow keys move between them) plus, when allowed, a free-text answer of its own. */
function choiceList(
  name: string,
  choices: readonly ResponseChoice[],
  freeTextField: string | undefined,
  choose: (choice: ResponseChoice) => void,
): HTMLElement {
  const form = element('form', { class: 'answer-choices' });
  choices.forEach((choice, index) => {
    const id = `${name}-choice-${index}`;
    form.append(
      element(
        'div',
        { class: 'choice' },
        element('input', { type: 'radio', name, id, value: String(index) }),
        element('label', { for: id }, choice.label),
      ),
    );
  });
  let text: HTMLInputElement | undefined;
  if (freeTextField !== undefined) {
    const ownId = `${name}-own`;
    text = element('input', { type: 'text', id: `${name}-text`, 'aria-label': PAGE_TEXT.ownAnswerLabel });
    form.append(
      element(
        'div',
        { class: 'choice' },
        element('input', { type: 'radio', name, id: ownId, value: 'own' }),
        element('label', { for: ownId }, PAGE_TEXT.ownAnswer),
      ),
      text,
    );
    const ownRadio = form.querySelector<HTMLInputElement>(`#${ownId}`);
    text.addEventListener('input', () => {
      if (ownRadio) ownRadio.checked = true;
    });
  }
  const problem = element('p', { class: 'form-problem', role: 'alert' });
  form.append(element('button', { type: 'submit' }, PAGE_TEXT.sendAnswer), problem);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const selected = form.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`);
    if (selected && selected.value !== 'own') return choose(choices[Number(selected.value)]);
    const typed = text?.value.trim() ?? '';
    if (freeTextField !== undefined && typed !== '')
      return choose({ label: typed, payload: { [freeTextField]: typed } });
    problem.textContent = PAGE_TEXT.chooseFirst;
  });
  return form;
}

/** The fallback for a schema the page does not understand: the payload typed as JSON. */
function jsonAnswer(name: string, choose: (choice: ResponseChoice) => void): HTMLElement {
  const id = `${name}-json`;
  const area = element('textarea', { id, rows: '3' }, '{}');
  const problem = element('p', { class: 'form-problem', role: 'alert' });
  const form = element(
    'form',
    {},
    element('label', { for: id }, PAGE_TEXT.jsonAnswerLabel),
    area,
    element('button', { type: 'submit' }, PAGE_TEXT.sendAnswer),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    try {
      const payload: unknown = JSON.parse(area.value);
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new Error();
      choose({ label: area.value, payload: payload as Record<string, unknown> });
    } catch {
      problem.textContent = PAGE_TEXT.invalidJson;
    }
  });
  return form;
}
