import { isWireObject } from '../wire/wire-value';
import { isPythonTruthy, pythonStr } from './python-coercion';

/** One choice of a question as clients see it in `metadata.standardOptions` and the response schema. */
export interface StandardOption {
  id: string;
  title: string;
}

/**
 * The original's `_standard_options` (docs/behaviour/interrupts.md#from-input-required-to-interrupts): for an option object, `id` = `id` ?? `candidate_index`
 * ?? its position, `title` = `label` || `name` || `title` || id; anything else is stringified for both.
 * An empty id becomes `option-<n>` (1-based) and repeated ids get `-2`, `-3`, … so every schema branch and
 * message line is distinct. A non-list `options` means no options.
 */
export function standardOptions(options: unknown): StandardOption[] {
  if (!Array.isArray(options)) return [];
  const used = new Set<string>();
  return options.map((option: unknown, index) => {
    const { id, title } = rawOption(option, index);
    const base = id === '' ? `option-${index + 1}` : id;
    let unique = base;
    for (let suffix = 2; used.has(unique); suffix += 1) unique = `${base}-${suffix}`;
    used.add(unique);
    return { id: unique, title };
  });
}

function rawOption(option: unknown, index: number): StandardOption {
  if (!isWireObject(option)) return { id: pythonStr(option), title: pythonStr(option) };
  // Python's dict.get(key, default): a key that is present wins even when its value is null.
  const id = pythonStr(
    'id' in option ? option.id : 'candidate_index' in option ? option.candidate_index : index,
  );
  const label = [option.label, option.name, option.title].find(isPythonTruthy);
  return { id, title: label === undefined ? id : pythonStr(label) };
}
